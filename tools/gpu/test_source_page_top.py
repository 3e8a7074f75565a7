"""source_page_top.py on a small page of two kernels, and on a file that is not a source page."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "source_page_top.py")
HEADER = '"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed"\n'


def run(text, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, SCRIPT, f.name, *args], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


class SourcePageTop(unittest.TestCase):
    def test_each_kernel_its_busiest_instructions_first(self):
        page = ('"Kernel Name","first_kernel"\n' + HEADER +
                '"0x100","  LDG R1, [R2]","10","4"\n"0x110","  IMAD R3, R1, 5, RZ","30","4"\n'
                '"0x120","  EXIT","0","4"\n'
                '"Kernel Name","second_kernel"\n' + HEADER + '"0x200","  STS [R1], R2","5","1"\n')
        done = run(page, "--top", "2")
        self.assertEqual(done.returncode, 0, done.stderr)
        first, second = done.stdout.split("\n\n")
        self.assertIn("kernel: first_kernel", first)
        self.assertIn("instructions: 3; warp instructions executed: 12; stall samples: 40", first)
        rows = first.splitlines()[3:]
        self.assertEqual(len(rows), 2)
        self.assertEqual(rows[0].split()[:3], ["0x10", "30", "75.0%"])
        self.assertTrue(rows[0].endswith("IMAD R3, R1, 5, RZ"))
        self.assertEqual(rows[1].split()[:3], ["0x0", "10", "25.0%"])
        self.assertIn("kernel: second_kernel", second)
        self.assertEqual(second.splitlines()[3].split()[:3], ["0x0", "5", "100.0%"])

    def test_a_file_without_a_source_table_is_one_line_and_exit_1(self):
        done = run("Metric Name,Metric Value\nduration,5\n")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1)
        self.assertIn("no kernel with a source table", done.stderr)


if __name__ == "__main__":
    unittest.main()
