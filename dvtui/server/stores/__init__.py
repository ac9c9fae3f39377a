"""Where the server keeps its tables: the storage interface (:mod:`.base`), the files
(:mod:`.files`) and the PostgreSQL store (:mod:`.pg`, with its helpers ``pg*``)."""
