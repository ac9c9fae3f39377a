"""Reading a file kept beside a game (its ``FILE.analysis.json``) as outside text (no Textual).

Games are shared, and the file beside one is whatever its sharer put there: a named pipe, a link to
``/dev/zero`` or to a file of someone else's, gigabytes. So it is opened as game files are
(:func:`dvtui.store.reader.read_bytes`), and more strictly, since nothing needs it to be a link: the
name itself must be a regular file (a symbolic link is not followed), the open never blocks, and
at most :data:`MAX_SIDECAR_BYTES` are read. What cannot be read so is refused with why, in words.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..i18n import _

MAX_SIDECAR_BYTES = 4 * 1024 * 1024
"""The largest file beside a game that is read: a game's analysis is ~50 KiB (about 100 placements)."""


class SidecarError(Exception):
    """A file beside a game that is not read; its message says why, in one line."""


def read_sidecar(path: Path) -> bytes:
    """The bytes of ``path``, a regular file of at most :data:`MAX_SIDECAR_BYTES`; SidecarError
    otherwise (FileNotFoundError when there is nothing at all, which is no error: nothing was kept)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as e:
        if e.errno == errno.ELOOP:  # O_NOFOLLOW's answer for a link
            raise SidecarError(_("is a symbolic link, not a file dvtui wrote")) from None
        raise SidecarError(_("cannot read: {error}").format(error=e.strerror or e)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise SidecarError(_("is not a regular file"))
        data = os.read(fd, MAX_SIDECAR_BYTES + 1)
        while data and len(data) <= MAX_SIDECAR_BYTES:  # (a short read is not the end on every file system)
            more = os.read(fd, MAX_SIDECAR_BYTES + 1 - len(data))
            if not more:
                break
            data += more
    except OSError as e:
        raise SidecarError(_("cannot read: {error}").format(error=e.strerror or e)) from None
    finally:
        os.close(fd)
    if len(data) > MAX_SIDECAR_BYTES:
        raise SidecarError(_("is larger than {most} bytes").format(most=MAX_SIDECAR_BYTES))
    return data


__all__ = ["MAX_SIDECAR_BYTES", "SidecarError", "read_sidecar"]
