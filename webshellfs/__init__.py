"""webshellfs: the web as a read-only filesystem of compiled pages, driven through `.ctl`."""

__version__ = "0.1.0"
