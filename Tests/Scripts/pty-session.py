"""Drives `easel edit DOC` in a pseudo-terminal, as a person at a keyboard would.

Usage: pty-session.py EASEL DOC KEYS...   each KEYS argument is typed after the prompt comes
back (escapes such as \\x1b[A for the Up arrow and \\t for Tab are understood); an argument
starting with ! is a shell command run at that point instead (another program at work).
Prints everything the terminal showed; exits with easel's status.
"""
import os
import pty
import select
import sys
import time

easel, document, *typed = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(easel, [easel, "edit", document, "--autosave", "60"])

shown = b""


def read_until(marker, seconds=10):
    global shown
    deadline = time.time() + seconds
    start = len(shown)
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return False
            if not chunk:
                return False
            shown += chunk
            if marker in shown[start:]:
                return True
    return False


read_until(b"easel> ")
for keys in typed:
    if keys.startswith("!"):
        os.system(keys[1:])
        continue
    os.write(fd, keys.encode().decode("unicode_escape").encode())
    read_until(b"easel> ")
_, status = os.waitpid(pid, 0)
try:
    while True:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        shown += chunk
except OSError:
    pass
sys.stdout.write(shown.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
