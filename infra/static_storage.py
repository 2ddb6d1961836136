"""Static files with hashed names whose ES module imports are rewritten to match.

The browser code is native ES modules (docs/ARCHITECTURE.md §The browser code): a page
loads `board.<hash>.js`, which imports `./rules.js`. Without the rewrite that import would
fetch the unhashed file, a second copy of the module with state of its own (two sound
players, two boards' rules), and a stale one after a deploy. Django's manifest storage
rewrites `import … from "…"` and `export … from "…"` when this flag is on (off by default).
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
