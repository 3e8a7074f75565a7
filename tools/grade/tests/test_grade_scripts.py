"""The scripts that grade where the grading service has no GPU, run here with a fake grader (no GPU, no
build, no network): tools/grade/github/grade_submission.sh and the workflow template beside it,
tools/grade/grade_many.sh, tools/grade/gradescope/run_autograder_remote (with a fake ssh on the PATH)
and make_zip.sh --remote. shellcheck and actionlint are run when they are on the PATH; the workflow's
structure is checked when PyYAML can be imported. Python's standard library only otherwise.
"""
import csv
import fcntl
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
GRADE = os.path.join(ROOT, "tools", "grade")
GRADE_SUBMISSION = os.path.join(GRADE, "github", "grade_submission.sh")
WORKFLOW = os.path.join(GRADE, "github", "grade-on-gpu-runner.yml")
GRADE_MANY = os.path.join(GRADE, "grade_many.sh")
REMOTE = os.path.join(GRADE, "gradescope", "run_autograder_remote")
MAKE_ZIP = os.path.join(GRADE, "gradescope", "make_zip.sh")
SCRIPTS = [GRADE_SUBMISSION, GRADE_MANY, REMOTE, MAKE_ZIP, os.path.join(GRADE, "gradescope", "setup.sh"),
           os.path.join(GRADE, "gradescope", "run_autograder")]

MEANINGS = {
    0: "graded",
    1: "graded; --require-full was given and a lesson is below its full score",
    2: "not graded: bad arguments or a rubric error",
    3: "not graded: nothing could be graded (no GPU, toolchain or build, or an output could not be written)",
    5: "the grader failed",
}

# Records its arguments, writes results.json and JUnit XML when it "graded" (status 0 or 1), prints a
# table with characters that HTML must escape. The status and score: the submission's files "status" and
# "score", else FAKE_GRADER_STATUS and 7.
FAKE_GRADER = """#!{python}
import json, os, sys
args = sys.argv[1:]
def opt(name):
    return args[args.index(name) + 1] if name in args else None
def from_submission(name, default):
    path = os.path.join(opt("--submission") or "", name)
    return open(path).read().strip() if os.path.isfile(path) else default
log = os.environ.get("FAKE_GRADER_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps({{"args": args, "CUDAMATCH_DATA" : os.environ.get("CUDAMATCH_DATA"),
                            "files": sorted(os.listdir(opt("--submission")))}}) + "\\n")
status = int(from_submission("status", os.environ.get("FAKE_GRADER_STATUS", "0")))
score = float(from_submission("score", "7"))
print("cudamatch-grade: building lesson 11 (fake)", file=sys.stderr)
if status in (0, 1):
    with open(opt("--results"), "w") as f:
        json.dump({{"score": score, "max_score": 10, "output": "fake", "tests": []}}, f)
    with open(opt("--junit"), "w") as f:
        f.write("<testsuites/>\\n")
    print("cudamatch-grade: submission (fake)\\nscore: %g of 10\\nlesson  item <b>&</b>" % score)
else:
    print("cudamatch-grade: cannot grade: no CUDA device <here>", file=sys.stderr)
sys.exit(status)
"""

# tools/grade/build_grader.sh of a fake course: "builds" the fake grader into BUILD_DIR/bin.
FAKE_BUILD_GRADER = """#!/usr/bin/env bash
set -euo pipefail
echo "$1" >> "${FAKE_BUILD_LOG:-/dev/null}"
[ -z "${FAKE_BUILD_FAIL:-}" ] || { echo "build_grader: nvcc not found" >&2; exit 1; }
mkdir -p "$1/bin"
cp "$FAKE_GRADER_SOURCE" "$1/bin/cudamatch-grade"
chmod +x "$1/bin/cudamatch-grade"
echo "build_grader: $1/bin/cudamatch-grade"
"""

# ssh that runs the command here, as a host would; logs its arguments; refuses a key others may read.
FAKE_SSH = """#!/usr/bin/env bash
printf '%s\\n' "$*" >> "$FAKE_SSH_LOG"
if [ -n "${FAKE_SSH_UNREACHABLE:-}" ]; then
  echo "ssh: connect to host gpu.example.edu port 2222: Connection refused" >&2
  exit 255
fi
while [ $# -gt 0 ]; do
  case $1 in
    -i) [ "$(stat -c %a "$2")" = 600 ] || { echo "UNPROTECTED PRIVATE KEY FILE" >&2; exit 255; }; shift 2 ;;
    -p | -o | -l) shift 2 ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
shift
exec bash -c "$*"
"""


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def read(path):
    with open(path) as f:
        return f.read()


class Fixture(unittest.TestCase):
    """A scratch folder with the fake grader, a fake course and an environment without the runner's."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="grade-scripts-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.grader = os.path.join(self.tmp, "bin", "fake-grade")
        write(self.grader, FAKE_GRADER.format(python=sys.executable), 0o755)
        self.grader_log = os.path.join(self.tmp, "grader.log")
        self.course = self.fake_course(os.path.join(self.tmp, "course"))
        self.env = {key: value for key, value in os.environ.items()
                    if not key.startswith(("GITHUB_", "CUDAMATCH_", "FAKE_"))}
        self.env.update(FAKE_GRADER_LOG=self.grader_log, FAKE_GRADER_SOURCE=self.grader)

    def fake_course(self, directory):
        """A course with the real grade_submission.sh and a build_grader.sh that copies the fake grader."""
        write(os.path.join(directory, "tools", "grade", "build_grader.sh"), FAKE_BUILD_GRADER, 0o755)
        target = os.path.join(directory, "tools", "grade", "github", "grade_submission.sh")
        os.makedirs(os.path.dirname(target))
        shutil.copy2(GRADE_SUBMISSION, target)
        return directory

    def submission(self, name, score=None, status=None, root=None):
        directory = os.path.join(root or os.path.join(self.tmp, "submissions"), name)
        write(os.path.join(directory, "lessons", "11-brute-force", "bf_v1.cu"), "// v1\n")
        if score is not None:
            write(os.path.join(directory, "score"), str(score))
        if status is not None:
            write(os.path.join(directory, "status"), str(status))
        return directory

    def grader_calls(self):
        if not os.path.exists(self.grader_log):
            return []
        return [json.loads(line) for line in read(self.grader_log).splitlines()]

    def run_script(self, *args, env=None, cwd=None):
        return subprocess.run(["bash", *args], capture_output=True, text=True, env=env or self.env, cwd=cwd, timeout=120)


class GradeSubmission(Fixture):
    def grade(self, *extra, status=0, summary=True, env=None, out=None):
        env = dict(env or self.env, CUDAMATCH_GRADE=self.grader, FAKE_GRADER_STATUS=str(status))
        if summary:
            env["GITHUB_STEP_SUMMARY"] = os.path.join(self.tmp, "summary.md")
        self.out = out or os.path.join(self.tmp, "out")
        return self.run_script(GRADE_SUBMISSION, "--course", self.course, "--submission", self.submission("alice"),
                               "--out", self.out, *extra, env=env)

    def test_each_exit_status_is_passed_through_and_explained_in_one_line(self):
        for status, meaning in MEANINGS.items():
            with self.subTest(status=status):
                result = self.grade(status=status)
                self.assertEqual(result.returncode, status, result.stderr)
                self.assertEqual(result.stderr.strip().splitlines()[-1], f"grade_submission: exit {status}: {meaning}")
                summary = read(os.path.join(self.tmp, "summary.md"))
                self.assertIn(f"### cudamatch-grade: exit status {status}, {meaning}\n", summary)
                os.remove(os.path.join(self.tmp, "summary.md"))

    def test_graded_writes_the_outputs_and_the_table_to_the_summary(self):
        result = self.grade("--lessons", "11")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("score: 7 of 10", result.stdout)
        for name in ("results.json", "junit.xml", "table.txt", "grade.log"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, name)), name)
        self.assertEqual(json.loads(read(os.path.join(self.out, "results.json")))["score"], 7)
        self.assertEqual(read(os.path.join(self.out, "table.txt")), result.stdout)
        self.assertIn("building lesson 11 (fake)", read(os.path.join(self.out, "grade.log")))
        self.assertIn("building lesson 11 (fake)", result.stderr)  # the progress stays visible
        summary = read(os.path.join(self.tmp, "summary.md"))
        self.assertIn("<pre>\ncudamatch-grade: submission (fake)\nscore: 7 of 10\n", summary)
        self.assertIn("lesson  item &lt;b&gt;&amp;&lt;/b&gt;\n</pre>", summary)

    def test_not_graded_puts_the_graders_reason_in_the_summary_and_removes_old_results(self):
        write(os.path.join(self.tmp, "out", "results.json"), "{}")  # from an earlier run
        result = self.grade(status=3)
        self.assertEqual(result.returncode, 3)
        self.assertFalse(os.path.exists(os.path.join(self.out, "results.json")))
        summary = read(os.path.join(self.tmp, "summary.md"))
        self.assertIn("No table", summary)
        self.assertIn("cudamatch-grade: cannot grade: no CUDA device &lt;here&gt;", summary)

    def test_the_summary_is_appended_to_and_only_when_the_variable_is_set(self):
        write(os.path.join(self.tmp, "summary.md"), "earlier step\n")
        self.grade()
        self.assertTrue(read(os.path.join(self.tmp, "summary.md")).startswith("earlier step\n### cudamatch-grade"))
        os.remove(os.path.join(self.tmp, "summary.md"))
        result = self.grade(summary=False)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "summary.md")))

    def test_the_grader_gets_the_course_the_submission_the_outputs_and_the_options(self):
        env = dict(self.env, CUDAMATCH_GRADE_OPTIONS="--sanitize  --ncu", CUDAMATCH_DATA="")
        build = os.path.join(self.tmp, "shared", "build")
        result = self.grade("--lessons", "11", "--build-dir", build, "--", "--require-full", env=env,
                            out=os.path.join(self.tmp, "relative-out"))
        self.assertEqual(result.returncode, 0, result.stderr)
        [call] = self.grader_calls()
        out = os.path.join(self.tmp, "relative-out")
        self.assertEqual(call["args"], [
            "--course", self.course, "--submission", os.path.join(self.tmp, "submissions", "alice"),
            "--results", os.path.join(out, "results.json"), "--junit", os.path.join(out, "junit.xml"),
            "--lessons", "11", "--build-dir", build, "--sanitize", "--ncu", "--require-full"])
        self.assertIsNone(call["CUDAMATCH_DATA"])  # an empty variable is not passed on
        self.assertTrue(os.path.exists(build + ".lock"))

    def test_empty_lessons_and_build_dir_mean_not_given(self):
        result = self.grade("--lessons", "", "--build-dir", "")
        self.assertEqual(result.returncode, 0, result.stderr)
        args = self.grader_calls()[0]["args"]
        self.assertNotIn("--lessons", args)
        self.assertNotIn("--build-dir", args)

    def test_bad_arguments_exit_2_with_one_line(self):
        for args, message in (
                (["--course", self.course, "--submission", self.tmp], "--course, --submission and --out are required"),
                (["--course", self.course, "--submission", "/nonexistent", "--out", self.tmp], "is not a directory"),
                (["--bogus"], "unknown argument '--bogus'"),
                (["--course"], "--course needs a value")):
            with self.subTest(args=args):
                result = self.run_script(GRADE_SUBMISSION, *args, env=dict(self.env, CUDAMATCH_GRADE=self.grader))
                self.assertEqual(result.returncode, 2)
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assertIn(message, result.stderr)
        self.assertEqual(self.grader_calls(), [])

    def test_without_CUDAMATCH_GRADE_the_courses_grader_is_built_then_run(self):
        build_log = os.path.join(self.tmp, "build.log")
        env = dict(self.env, FAKE_BUILD_LOG=build_log)
        result = self.run_script(GRADE_SUBMISSION, "--course", self.course, "--submission", self.submission("alice"),
                                 "--out", os.path.join(self.tmp, "out"), env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        grader_build = os.path.join(self.course, "build", "grader")
        self.assertEqual(read(build_log), grader_build + "\n")
        self.assertIn("build_grader: " + grader_build, result.stderr)  # its output goes to stderr
        self.assertNotIn("build_grader", result.stdout)
        self.assertEqual(len(self.grader_calls()), 1)
        self.assertTrue(os.path.exists(grader_build + ".lock"))

    def test_a_grader_that_cannot_be_built_exits_3(self):
        env = dict(self.env, FAKE_BUILD_FAIL="1")
        result = self.run_script(GRADE_SUBMISSION, "--course", self.course, "--submission", self.submission("alice"),
                                 "--out", os.path.join(self.tmp, "out"), env=env)
        self.assertEqual(result.returncode, 3)
        self.assertEqual(result.stderr.strip().splitlines()[-1],
                         "grade_submission: exit 3: cannot build the grader (build_grader.sh exited with status 1)")
        not_a_course = os.path.join(self.tmp, "empty")
        os.makedirs(not_a_course)
        result = self.run_script(GRADE_SUBMISSION, "--course", not_a_course, "--submission", self.submission("alice"),
                                 "--out", os.path.join(self.tmp, "out"))
        self.assertEqual(result.returncode, 3)
        self.assertIn("is it a cudamatch course?", result.stderr)

    def test_a_course_with_solutions_gets_a_warning(self):
        os.makedirs(os.path.join(self.course, "solutions"))
        result = self.grade()
        self.assertIn("solutions exists: keep it out of the course you grade against", result.stderr)

    @unittest.skipUnless(shutil.which("flock"), "no flock")
    def test_runs_that_share_a_build_folder_wait_for_each_other(self):
        build = os.path.join(self.tmp, "build")
        stderr_path = os.path.join(self.tmp, "stderr")
        waiting = "waiting for the grading run that holds " + build + ".lock"
        with open(build + ".lock", "w") as lock, open(stderr_path, "w") as stderr:
            fcntl.flock(lock, fcntl.LOCK_EX)
            env = dict(self.env, CUDAMATCH_GRADE=self.grader)
            process = subprocess.Popen(["bash", GRADE_SUBMISSION, "--course", self.course, "--submission",
                                        self.submission("alice"), "--out", os.path.join(self.tmp, "out"),
                                        "--build-dir", build], env=env, stdout=subprocess.DEVNULL, stderr=stderr)
            deadline = time.monotonic() + 60
            while waiting not in read(stderr_path) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertIn(waiting, read(stderr_path))
            time.sleep(0.5)
            self.assertIsNone(process.poll())
            self.assertEqual(self.grader_calls(), [])
            fcntl.flock(lock, fcntl.LOCK_UN)
            process.wait(timeout=60)
        self.assertEqual(process.returncode, 0, read(stderr_path))
        self.assertEqual(len(self.grader_calls()), 1)


class GradeMany(Fixture):
    def test_one_row_per_submission_and_the_largest_failing_status(self):
        root = os.path.join(self.tmp, "export")
        self.submission("alice", score=9, root=root)
        self.submission("bob, jr", score=4, status=1, root=root)
        self.submission("carol", status=3, root=root)
        write(os.path.join(root, "submission_metadata.yml"), "not a submission\n")
        os.makedirs(os.path.join(root, ".hidden"))
        out = os.path.join(self.tmp, "graded")
        env = dict(self.env, CUDAMATCH_GRADE=self.grader)
        result = self.run_script(GRADE_MANY, "--course", self.course, "--lessons", "11", root, out, "--", "--ncu",
                                 env=env)
        self.assertEqual(result.returncode, 3, result.stderr)
        with open(os.path.join(out, "scores.csv"), newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows, [
            ["submission", "score", "max_score", "status", "meaning"],
            ["alice", "9.0", "10", "0", MEANINGS[0]],
            ["bob, jr", "4.0", "10", "1", MEANINGS[1]],
            ["carol", "", "", "3", MEANINGS[3]]])
        self.assertEqual(json.loads(read(os.path.join(out, "alice", "results.json")))["score"], 9)
        self.assertTrue(os.path.isfile(os.path.join(out, "bob, jr", "junit.xml")))
        self.assertFalse(os.path.exists(os.path.join(out, "carol", "results.json")))
        self.assertIn("cannot grade: no CUDA device", read(os.path.join(out, "carol", "run.log")))
        self.assertIn("grade_many: alice: 9.0 of 10, exit 0: graded", result.stdout)
        calls = self.grader_calls()
        self.assertEqual(len(calls), 3)
        for call, name in zip(calls, ("alice", "bob, jr", "carol")):
            args = call["args"]
            self.assertEqual(args[args.index("--submission") + 1], os.path.join(root, name))
            self.assertEqual(args[args.index("--course") + 1], self.course)
            self.assertEqual(args[args.index("--build-dir") + 1], os.path.join(out, ".build"))
            self.assertEqual(args[args.index("--lessons") + 1], "11")
            self.assertEqual(args[-1], "--ncu")

    def test_all_graded_exits_0_and_an_empty_folder_exits_2(self):
        root = os.path.join(self.tmp, "clones")
        self.submission("alice", root=root)
        self.submission("bob", status=1, root=root)
        env = dict(self.env, CUDAMATCH_GRADE=self.grader)
        result = self.run_script(GRADE_MANY, "--course", self.course, root, os.path.join(self.tmp, "o1"), env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        result = self.run_script(GRADE_MANY, "--course", self.course, empty, os.path.join(self.tmp, "o2"), env=env)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no submission folders in", result.stderr)
        result = self.run_script(GRADE_MANY, root, env=env)
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage:", result.stderr)


class RunAutograderRemote(Fixture):
    """Gradescope's /autograder in a scratch folder, a GPU host that is this machine through a fake ssh."""

    def setUp(self):
        super().setUp()
        self.autograder = os.path.join(self.tmp, "autograder")
        self.source = os.path.join(self.autograder, "source")
        self.host_course = self.fake_course(os.path.join(self.tmp, "host", "course"))
        self.host_tmp = os.path.join(self.tmp, "host", "tmp")
        os.makedirs(self.host_tmp)
        write(os.path.join(self.source, "gpu-host.key"), "PRIVATE KEY\n", 0o644)  # as unzipped
        write(os.path.join(self.source, "gpu-host.known_hosts"), "gpu.example.edu ssh-ed25519 AAAA\n")
        write(os.path.join(self.source, "grade-lessons.txt"), "11\n")
        self.configure(GPU_HOST="gpu.example.edu", GPU_USER="grader", GPU_PORT="2222", GPU_KEY="gpu-host.key",
                       GPU_KNOWN_HOSTS="gpu-host.known_hosts", GPU_COURSE=self.host_course,
                       GPU_GRADE_OPTIONS='"--sanitize --ncu"')
        self.submission_dir = self.submission("submission", score=8, root=self.autograder)
        bin_dir = os.path.join(self.tmp, "fake-bin")
        write(os.path.join(bin_dir, "ssh"), FAKE_SSH, 0o755)
        self.ssh_log = os.path.join(self.tmp, "ssh.log")
        self.env.update(PATH=bin_dir + os.pathsep + self.env["PATH"], AUTOGRADER_ROOT=self.autograder,
                        FAKE_SSH_LOG=self.ssh_log, TMPDIR=self.host_tmp)
        self.results = os.path.join(self.autograder, "results", "results.json")

    def configure(self, **values):
        write(os.path.join(self.source, "gpu-host.env"), "".join(f"{k}={v}\n" for k, v in values.items()))

    def run_remote(self, **env):
        return self.run_script(REMOTE, env=dict(self.env, **env))

    def not_graded(self, result, reason):
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assertTrue(result.stderr.strip().splitlines()[-1].startswith("run_autograder_remote: " + reason),
                        result.stderr)
        data = json.loads(read(self.results))
        self.assertEqual(data["score"], 0)
        self.assertEqual(data["tests"], [])
        self.assertTrue(data["output"].startswith("Not graded: " + reason), data["output"])
        return data

    def test_grades_on_the_host_and_brings_results_json_back(self):
        result = self.run_remote()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(read(self.results))["score"], 8)  # the submission's files reached the host
        [call] = self.grader_calls()
        args = call["args"]
        self.assertEqual(call["files"], ["lessons", "score"])
        self.assertEqual(args[args.index("--course") + 1], self.host_course)
        self.assertEqual(args[args.index("--lessons") + 1], "11")
        self.assertEqual(args[args.index("--build-dir") + 1], os.path.join(self.host_course, "build", "gradescope"))
        self.assertEqual(args[-2:], ["--sanitize", "--ncu"])
        self.assertIn("score: 8 of 10", result.stdout)  # the table, in Gradescope's log
        ssh = read(self.ssh_log).splitlines()[0]
        for option in ("-p 2222", "-o BatchMode=yes", "-o StrictHostKeyChecking=yes",
                       "-o UserKnownHostsFile=" + os.path.join(self.source, "gpu-host.known_hosts"),
                       "-- grader@gpu.example.edu"):
            self.assertIn(option, ssh)
        self.assertEqual(os.listdir(self.host_tmp), [])  # the host's copy is removed

    def test_the_status_is_passed_through(self):
        write(os.path.join(self.submission_dir, "status"), "1")
        result = self.run_remote()
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(json.loads(read(self.results))["score"], 8)

    def test_nothing_graded_on_the_host(self):
        write(os.path.join(self.submission_dir, "status"), "3")
        self.not_graded(self.run_remote(), "the GPU grading host wrote no results (grade_submission.sh exited with status 3)")
        self.assertEqual(os.listdir(self.host_tmp), [])

    def test_a_host_that_cannot_be_reached(self):
        data = self.not_graded(self.run_remote(FAKE_SSH_UNREACHABLE="1"),
                               "cannot reach the GPU grading host grader@gpu.example.edu:2222 (ssh exited with status 255)")
        self.assertIn("This is not your score", data["output"])
        self.assertEqual(self.grader_calls(), [])

    def test_a_reason_with_quotes_still_gives_valid_json(self):
        self.configure(GPU_HOST="'gpu\"quoted\\host'", GPU_USER="grader", GPU_KEY="gpu-host.key",
                       GPU_KNOWN_HOSTS="gpu-host.known_hosts", GPU_COURSE=self.host_course)
        data = self.not_graded(self.run_remote(FAKE_SSH_UNREACHABLE="1"), "cannot reach")
        self.assertIn('grader@gpu"quoted\\host:22 ', data["output"])

    def test_a_host_that_is_not_configured(self):
        os.remove(os.path.join(self.source, "gpu-host.env"))
        self.not_graded(self.run_remote(), "the GPU grading host is not configured (no ")
        self.configure(GPU_HOST="gpu.example.edu", GPU_USER="grader", GPU_KEY="gpu-host.key",
                       GPU_KNOWN_HOSTS="gpu-host.known_hosts")
        self.not_graded(self.run_remote(), "the GPU grading host is not configured (GPU_COURSE is not set in ")
        self.configure(GPU_HOST="gpu.example.edu", GPU_USER="grader", GPU_KEY="missing.key",
                       GPU_KNOWN_HOSTS="gpu-host.known_hosts", GPU_COURSE=self.host_course)
        self.not_graded(self.run_remote(), "the GPU grading host is not configured (cannot read ")

    def test_make_zip_remote_ships_the_configuration_and_no_course(self):
        config = os.path.join(self.tmp, "gpu-config")
        write(os.path.join(config, "gpu-host.env"), "GPU_HOST=gpu.example.edu\n")
        write(os.path.join(config, "gpu-host.key"), "KEY\n")
        out = os.path.join(self.tmp, "autograder-11.zip")
        result = subprocess.run(["bash", MAKE_ZIP, "--remote", config, out, "11"], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        with zipfile.ZipFile(out) as z:
            self.assertEqual(sorted(z.namelist()), ["gpu-host.env", "gpu-host.key", "grade-lessons.txt", "run_autograder",
                                                    "setup.sh"])
            self.assertEqual(z.read("run_autograder").decode(), read(REMOTE))
            self.assertEqual(z.read("grade-lessons.txt").decode(), "11\n")
        result = subprocess.run(["bash", MAKE_ZIP, "--remote", self.tmp, out], capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no " + os.path.join(self.tmp, "gpu-host.env"), result.stderr)


class Workflow(Fixture):
    def load(self):
        try:
            import yaml
        except ImportError:
            self.skipTest("no PyYAML")
        with open(WORKFLOW) as f:
            return yaml.safe_load(f)

    @unittest.skipUnless(shutil.which("actionlint"), "no actionlint")
    def test_actionlint(self):
        config = os.path.join(self.tmp, "actionlint.yaml")
        write(config, "self-hosted-runner:\n  labels: [gpu]\n")
        result = subprocess.run(["actionlint", "-config-file", config, WORKFLOW], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_the_course_comes_from_the_variables_and_grades_the_push_as_a_submission(self):
        text = read(WORKFLOW)
        for needed in ("runs-on: [self-hosted, linux, gpu]", "repository: ${{ vars.CUDAMATCH_COURSE_REPO }}",
                       "ref: ${{ vars.CUDAMATCH_COURSE_REF }}", "bash course/tools/grade/github/grade_submission.sh",
                       "--submission submission", "uses: actions/upload-artifact@", "persist-credentials: false"):
            self.assertIn(needed, text)
        self.assertNotIn("submission/tools", text)  # nothing of the student's push is run

    def test_the_structure(self):
        workflow = self.load()
        triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key on as true
        self.assertIn("push", triggers)
        self.assertEqual(workflow["permissions"], {"contents": "read"})
        job = workflow["jobs"]["grade"]
        self.assertEqual(job["runs-on"], ["self-hosted", "linux", "gpu"])
        steps = job["steps"]
        checkouts = [step for step in steps if step.get("uses", "").startswith("actions/checkout@")]
        self.assertEqual([step["with"]["path"] for step in checkouts], ["submission", "course"])
        self.assertNotIn("repository", checkouts[0]["with"])
        self.assertEqual(checkouts[1]["with"]["repository"], "${{ vars.CUDAMATCH_COURSE_REPO }}")
        upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@"))
        self.assertEqual(upload["if"], "always()")
        self.assertEqual(upload["with"]["path"], "grade-results/")

    def runner_step(self, name, workspace, env):
        """Runs the run: script of the step NAME as the runner would: bash -e, in the workspace."""
        step = next(step for step in self.load()["jobs"]["grade"]["steps"] if step.get("name") == name)
        step_env = {key: ("" if "${{" in value else value) for key, value in step.get("env", {}).items()}
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              capture_output=True, text=True, cwd=workspace, env=dict(self.env, **step_env, **env))

    def test_the_steps_run_in_a_fake_runner(self):
        workspace = os.path.join(self.tmp, "_work", "alice-07", "alice-07")
        self.fake_course(os.path.join(workspace, "course"))
        self.submission("submission", score=6, root=workspace)
        write(os.path.join(workspace, "grade-results", "results.json"), "{}")  # an earlier run's
        summary = os.path.join(self.tmp, "step_summary.md")
        runner = {"GITHUB_WORKSPACE": workspace, "GITHUB_REPOSITORY": "class/alice-07", "GITHUB_STEP_SUMMARY": summary,
                  "RUNNER_TEMP": os.path.join(self.tmp, "runner-temp")}
        check = self.runner_step("Check the course variable", workspace, runner)  # the variable unset: ""
        self.assertEqual(check.returncode, 2)
        self.assertIn("::error::set the variable CUDAMATCH_COURSE_REPO", check.stdout)
        self.assertFalse(os.path.exists(os.path.join(workspace, "grade-results")))
        grade = self.runner_step("Grade", workspace, runner)
        self.assertEqual(grade.returncode, 0, grade.stderr)
        self.assertEqual(json.loads(read(os.path.join(workspace, "grade-results", "results.json")))["score"], 6)
        self.assertIn("score: 6 of 10", read(summary))
        self.assertTrue(os.path.exists(os.path.join(workspace, "course", "build", "grader", "bin", "cudamatch-grade")))


@unittest.skipUnless(shutil.which("shellcheck"), "no shellcheck")
class ShellCheck(unittest.TestCase):
    def test_the_scripts_are_shellcheck_clean(self):
        for script in SCRIPTS:
            with self.subTest(script=os.path.relpath(script, ROOT)):
                self.assertTrue(os.stat(script).st_mode & stat.S_IXUSR, "not executable")
                result = subprocess.run(["shellcheck", script], capture_output=True, text=True)
                self.assertEqual(result.returncode, 0, result.stdout)


if __name__ == "__main__":
    unittest.main()
