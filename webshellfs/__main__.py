from webshellfs.cli import main

raise SystemExit(main())
