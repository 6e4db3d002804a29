#!/bin/sh
# Removes from a production node_modules what no app reads at run time: type declarations, source
# maps, TypeScript sources beside their compiled JavaScript, Markdown, and packages' own tests,
# examples, benchmarks and docs folders. Licences stay. The image build runs it
# (docs/containers.md, gives what it saves); the container suite then runs every app
# from the pruned tree.
set -eu
dir=${1:?usage: prune-node-modules.sh <node_modules>}
find "$dir" -type f \( \
  -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o \
  \( -name '*.ts' ! -name '*.d.ts' \) -o -name '*.mts' -o -name '*.cts' -o \
  -iname '*.md' -o -iname '*.markdown' -o -name '.npmignore' -o -name '.eslintrc*' -o \
  -name '.prettierrc*' -o -name 'tsconfig*.json' -o -name '.travis.yml' -o -name '.editorconfig' \
\) ! -iname 'licen[cs]e*' -delete
find "$dir" -type d \( \
  -name '__tests__' -o -name 'test' -o -name 'tests' -o -name 'example' -o -name 'examples' -o \
  -name 'benchmark' -o -name 'benchmarks' -o -name '.github' -o -name 'docs' -o -name 'doc' \
\) -prune -exec rm -rf {} +
