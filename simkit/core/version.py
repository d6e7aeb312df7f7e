"""simkit's version, as installed (the manifest records it)."""

from importlib import metadata

try:
    __version__ = metadata.version("simkit")
except metadata.PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
