"""What the tests of the course checks share: running a check's script over a course root, as CTest does."""
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the real course, which the tests only read


def run_check(script: str, root: pathlib.Path):
    """(exit status, stdout + stderr) of tools/course/<script> --root ROOT."""
    result = subprocess.run([sys.executable, str(HERE / script), "--root", str(root)], capture_output=True,
                            text=True, check=False)
    return result.returncode, result.stdout + result.stderr
