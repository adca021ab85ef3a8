"""`webshellfs mcp`: the engine served over the Model Context Protocol, for agents whose tools
come over MCP (no shell, no FUSE). The same pages, addresses and commands as the mount:

    mcp/
      tools.py   a tool per `.ctl` command, made from ctl.COMMANDS; the answer is the response
      files.py   read (cat / sed -n / ls) and grep (grep -rn) over the store
      server.py  the MCPServer with those tools, over one Engine
      serve.py   the process: the engine as a mount wires it, stdio or HTTP on loopback

The SDK is imported only here, so the mount and the compiler never load it.
"""
