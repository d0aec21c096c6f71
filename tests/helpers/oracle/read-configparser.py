# SPDX-License-Identifier: MIT
# Python's configparser over a file, as pip and twine read one
import configparser
import sys

c = configparser.RawConfigParser()
c.read(sys.argv[1], encoding='utf-8')
for s in c.sections():
    for k, v in c.items(s):
        print(repr(s), repr(k), repr(v))
