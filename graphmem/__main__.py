from graphmem.app.entry import main

raise SystemExit(main())
