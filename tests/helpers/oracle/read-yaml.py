# SPDX-License-Identifier: MIT
# A YAML loader (PyYAML) over a file, its bytes as they are
import json
import sys
import yaml

with open(sys.argv[1], 'rb') as f:
    print(json.dumps(yaml.safe_load(f)))
