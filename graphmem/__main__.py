from graphmem.app.cli import main

raise SystemExit(main())
