from webshellfs.cli import main

if __name__ == "__main__":  # not when a worker process imports it (see workers.py)
    raise SystemExit(main())
