"""Tests of tools/setup/setup.sh, the set-up that ./run-tests and ./run-bench share: each way it cannot
get what a build needs (no CUDA toolkit, no apt-get, no network, not root without sudo) is one line on
stderr and its own exit status. The functions run in bash with only stub commands on the PATH (id, sudo,
apt-get, nvcc), so nothing is installed and the machine's own tools do not matter. Also: the commands
reject unknown arguments, and the scripts are shellcheck-clean."""

import os
import shutil
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SETUP = REPO / "tools" / "setup" / "setup.sh"
SCRIPTS = [REPO / "run-tests", REPO / "run-bench", REPO / ".ci" / "run", SETUP]
BASH = shutil.which("bash")
NO_TOOLKIT, NO_PACKAGE, NO_PERMISSION, BAD_USAGE = 3, 4, 5, 2

# apt-get without network, as Debian 12's says it: update warns and succeeds, install fails.
APT_OFFLINE = """if [ "$1" = update ]; then
  echo "W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving" >&2
  echo "W: Some index files failed to download. They have been ignored, or old ones used instead." >&2
  exit 0
fi
echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/n/nlohmann-json3/x.deb  Temporary failure resolving" >&2
echo "E: Some files failed to download" >&2
exit 100"""


class SetupFunctions(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        self.calls = self.tmp / "calls"  # what the stubs were asked to do, one line each

    def stub(self, name, body):
        path = self.bin / name
        path.write_text(f"#!{BASH}\necho \"{name} $*\" >> '{self.calls}'\n{body}\n")
        path.chmod(0o755)

    def link(self, *names):
        for name in names:
            (self.bin / name).symlink_to(shutil.which(name))

    def run_setup(self, commands, **env):
        """Runs COMMANDS after sourcing setup.sh, as `run-tests`, with only the stubs on the PATH."""
        script = f"set -euo pipefail; source '{SETUP}'; {commands}"
        return subprocess.run([BASH, "-c", script, "run-tests"], capture_output=True, text=True, cwd=self.tmp,
                              env={"PATH": str(self.bin), "HOME": str(self.tmp), **env}, check=False)

    def called(self):
        return self.calls.read_text().splitlines() if self.calls.exists() else []

    def assert_one_line(self, result, status, *parts):
        self.assertEqual(result.returncode, status, result.stderr)
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("run-tests: "), lines[0])
        for part in parts:
            self.assertIn(part, lines[0])

    def test_no_nvcc_on_the_path_nor_in_cuda_home_is_status_3(self):
        result = self.run_setup("setup_find_cuda_toolkit", CUDA_HOME=str(self.tmp / "cuda"))
        self.assert_one_line(result, NO_TOOLKIT, "no CUDA toolkit", f"{self.tmp}/cuda/bin",
                             "https://developer.nvidia.com/cuda-downloads")

    def test_nvcc_in_cuda_home_goes_on_the_path(self):
        cuda_bin = self.tmp / "cuda" / "bin"
        cuda_bin.mkdir(parents=True)
        (cuda_bin / "nvcc").write_text(f"#!{BASH}\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n")
        (cuda_bin / "nvcc").chmod(0o755)
        self.link("grep")
        result = self.run_setup('setup_find_cuda_toolkit; echo "PATH=$PATH"', CUDA_HOME=str(self.tmp / "cuda"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(f"run-tests: adding {cuda_bin} to the PATH", result.stdout)
        self.assertIn(f"run-tests: CUDA toolkit: {cuda_bin}/nvcc, release 12.4", result.stdout)
        self.assertIn(f"PATH={cuda_bin}:", result.stdout)

    def test_as_root_it_installs_with_apt_get(self):
        self.stub("id", "echo 0")
        self.stub("apt-get", "exit 0")
        self.link("env")
        result = self.run_setup("setup_apt_install catch2 libcli11-dev")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "run-tests: installing catch2 libcli11-dev via apt-get\n")
        self.assertEqual(self.called()[1:], ["apt-get update -qq",
                                             "apt-get install -y -qq --no-install-recommends catch2 libcli11-dev"])

    def test_not_root_it_says_so_and_installs_through_sudo(self):
        self.stub("id", "echo 1000")
        self.stub("sudo", 'exec "$@"')
        self.stub("apt-get", "exit 0")
        self.link("env", "true")
        result = self.run_setup("setup_apt_install catch2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("run-tests: not root: installing through sudo", result.stdout)
        self.assertIn("run-tests: installing catch2 via apt-get with sudo", result.stdout)
        self.assertIn("apt-get install -y -qq --no-install-recommends catch2", self.called())

    def test_not_root_without_sudo_is_status_5(self):
        self.stub("id", "echo 1000")
        self.stub("apt-get", "exit 0")
        result = self.run_setup("setup_apt_install catch2 libcli11-dev")
        self.assert_one_line(result, NO_PERMISSION, "missing catch2 libcli11-dev", "not root, and no sudo",
                             "apt-get install catch2 libcli11-dev")
        self.assertNotIn("apt-get", " ".join(self.called()))

    def test_sudo_refusing_is_status_5(self):
        self.stub("id", "echo 1000")
        self.stub("sudo", "exit 1")
        self.stub("apt-get", "exit 0")
        result = self.run_setup("setup_apt_install catch2")
        self.assert_one_line(result, NO_PERMISSION, "missing catch2", "sudo refused")

    def test_apt_get_without_network_is_status_4_with_its_error(self):
        self.stub("id", "echo 0")
        self.stub("apt-get", APT_OFFLINE)
        self.link("env")
        result = self.run_setup("setup_apt_install nlohmann-json3-dev")
        self.assert_one_line(result, NO_PACKAGE, "apt-get could not install nlohmann-json3-dev (E: Failed to fetch",
                             "x.deb  Temporary failure resolving); without network access, stage them under .deps/")
        self.assertIn("run-tests: apt-get update: W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease",
                      result.stdout)

    def test_no_apt_get_is_status_4(self):
        self.stub("id", "echo 0")
        result = self.run_setup("setup_apt_install catch2")
        self.assert_one_line(result, NO_PACKAGE, "missing catch2", "no apt-get here", ".deps/")

    def test_a_library_is_found_by_its_cmake_config_under_a_prefix(self):
        config = self.tmp / "prefix" / "share" / "cmake" / "Fake" / "FakeConfig.cmake"
        config.parent.mkdir(parents=True)
        config.touch()
        result = self.run_setup('setup_need_cmake_package Fake fake-dev; setup_need_cmake_package Absent absent-dev; '
                                'echo "${setup_found[*]}|${setup_missing[*]}"',
                                CMAKE_PREFIX_PATH=f"/nonexistent:{self.tmp / 'prefix'}")
        self.assertEqual(result.stdout, "Fake|absent-dev\n", result.stderr)

    def test_hyperscan_found_under_a_prefix_is_not_installed(self):
        header = self.tmp / "prefix" / "include" / "hs" / "hs.h"
        header.parent.mkdir(parents=True)
        header.touch()
        self.stub("apt-get", "exit 0")
        result = self.run_setup("setup_hyperscan", CMAKE_PREFIX_PATH=str(self.tmp / "prefix"))
        self.assertEqual((result.returncode, result.stdout), (0, "run-tests: found Hyperscan\n"), result.stderr)
        self.assertEqual(self.called(), [])

    # Hyperscan is optional: what apt-get cannot install is said, and the set-up goes on. (The machine's own
    # /usr may hold Hyperscan, so these tests say it is under no prefix.)
    def test_hyperscan_is_installed_with_apt_get_when_missing(self):
        self.stub("id", "echo 0")
        self.stub("apt-get", "exit 0")
        self.link("env")
        result = self.run_setup("setup_under_a_prefix() { return 1; }; setup_hyperscan; echo went on")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "run-tests: installing libhyperscan-dev via apt-get\nwent on\n")
        self.assertIn("apt-get install -y -qq --no-install-recommends libhyperscan-dev", self.called())

    def test_without_apt_get_or_network_the_set_up_goes_on_without_hyperscan(self):
        self.stub("id", "echo 0")
        self.link("env")
        for apt_get in (None, APT_OFFLINE):
            with self.subTest(apt_get="offline" if apt_get else "none"):
                if apt_get:
                    self.stub("apt-get", apt_get)
                result = self.run_setup("setup_under_a_prefix() { return 1; }; setup_hyperscan; echo went on")
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertTrue(result.stdout.endswith("run-tests: going on without Hyperscan: cudamatch bench has "
                                                       "no hyperscan peer\nwent on\n"), result.stdout)
                self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)  # why apt-get could not
                self.assertIn("libhyperscan-dev", result.stderr)


class Commands(unittest.TestCase):
    def test_unknown_arguments_are_status_2(self):
        for command, args, part in [("run-tests", ["--bogus"], "unknown argument '--bogus'"),
                                    ("run-bench", ["--preset"], "--preset needs a value")]:
            with self.subTest(command=command):
                result = subprocess.run([str(REPO / command), *args], capture_output=True, text=True, check=False)
                self.assertEqual(result.returncode, BAD_USAGE, result.stderr)
                self.assertEqual(result.stderr.splitlines(), [f"{command}: {part} (--help)"])

    def test_ctest_arguments_follow_a_double_dash(self):
        # Without the toolkit the command stops before the build, so the arguments must have parsed.
        env = {**os.environ, "PATH": "/usr/bin:/bin", "CUDA_HOME": "/nonexistent"}
        result = subprocess.run([str(REPO / "run-tests"), "--", "-L", "07-reductions"], capture_output=True,
                                text=True, check=False, env=env)
        self.assertEqual(result.returncode, NO_TOOLKIT, result.stderr)
        self.assertIn("no CUDA toolkit", result.stderr)

    def test_help_lists_the_exit_statuses(self):
        for command in ("run-tests", "run-bench"):
            with self.subTest(command=command):
                result = subprocess.run([str(REPO / command), "--help"], capture_output=True, text=True, check=False)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn(f"./{command} [--preset NAME]", result.stdout)
                self.assertIn("5  a package is missing and this user may not install it", result.stdout)


@unittest.skipUnless(shutil.which("shellcheck"), "no shellcheck")
class ShellCheck(unittest.TestCase):
    def test_the_scripts_are_shellcheck_clean(self):
        for script in SCRIPTS:
            with self.subTest(script=str(script.relative_to(REPO))):
                if script != SETUP:
                    self.assertTrue(script.stat().st_mode & stat.S_IXUSR, "not executable")
                result = subprocess.run(["shellcheck", "-x", str(script)], capture_output=True, text=True,
                                        cwd=script.parent, check=False)
                self.assertEqual(result.returncode, 0, result.stdout)


if __name__ == "__main__":
    unittest.main()
