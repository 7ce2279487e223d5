"""A hostile plugin for the trust tests: importing it leaves a marker file, proving code ran.

The tests point ``SAMURAI_HOSTILE_MARKER`` at a temporary file and check it
is never written when a record, scenario or folder merely names this plugin's
manifest. (It also prints, so a run by hand shows it at once.)
"""

import os
import pathlib
import tempfile

marker = os.environ.get("SAMURAI_HOSTILE_MARKER") or os.path.join(tempfile.gettempdir(), "samurai-hostile-ran")
pathlib.Path(marker).write_text("the hostile plugin ran\n")
print("HOSTILE PLUGIN RAN")
