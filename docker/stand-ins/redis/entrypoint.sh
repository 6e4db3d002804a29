#!/bin/sh
# As the official image: a server started without a configuration file listens for other
# containers, with protected mode off.
if [ "$1" = redis-server ]; then
  set -- "$@" --protected-mode no
fi
exec "$@"
