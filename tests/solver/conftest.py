"""The solver tests need no database and no Django.

``tests/conftest.py`` reads Django settings while collecting; under
``pytest -p no:django`` nothing names the settings module, so name it here (the
settings are only read, never used by these tests).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
