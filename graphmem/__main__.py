from graphmem.cli import main

raise SystemExit(main())
