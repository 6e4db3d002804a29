#!/bin/sh
# Removes from a production node_modules what no app reads at run time: type declarations, source
# maps, TypeScript sources beside their compiled JavaScript, Markdown, and the tests, examples and
# benchmarks folders at packages' roots. Licences stay. The image build runs it (docs/operators/containers.md
# gives what it saves); the container suite then runs every app from the pruned tree.
set -eu
dir=${1:?usage: prune-node-modules.sh <node_modules>}
find "$dir" -type f \( \
  -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o \
  \( -name '*.ts' ! -name '*.d.ts' \) -o -name '*.mts' -o -name '*.cts' -o \
  -iname '*.md' -o -iname '*.markdown' -o -name '.npmignore' -o -name '.eslintrc*' -o \
  -name '.prettierrc*' -o -name 'tsconfig*.json' -o -name '.travis.yml' -o -name '.editorconfig' \
\) ! -iname 'licen[cs]e*' -delete
# Folders at a package's own root only: deeper, a folder named so may hold code (yaml's dist/doc).
find "$dir" -regextype posix-extended -type d \
  -regex '.*/node_modules/(@[^/]+/)?[^/]+/(__tests__|test|tests|example|examples|benchmark|benchmarks|\.github)' \
  -prune -exec rm -rf {} +
