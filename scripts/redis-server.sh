# Sourced by scripts/test/30-python.sh and 40-node.sh: Debian's redis-server, installed when
# missing, for the replay guard's tests of RedisStore (python/tests/test_replay.py,
# node/test/replay.test.js start their own server on 127.0.0.1 and stop it). EKL_REQUIRE_REDIS=1
# makes those tests fail, instead of skipping, when the server is still missing.
if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis-server: apt-get install redis-server"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
fi
export EKL_REQUIRE_REDIS=1
