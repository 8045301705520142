#!/bin/sh
# Installs the real load generators `app experiment -with TOOL` runs and
# `make bench` measures (issue 27). Idempotent: it installs only what is
# missing, and says what it skipped and why.
#
#   Debian packages (only as root, only when missing): wrk, hey,
#     python3-locust, apache2-utils (ab).
#   Go modules, into $TOOLS/bin (GOBIN), never the system:
#     vegeta v12.13.0, fortio v1.66.0 (v1.72.0's command needs a module the
#     proxy refuses), bombardier v1.2.6.
#   autocannon 9.0.0 from npm, into $TOOLS/node, linked as
#     $TOOLS/bin/autocannon; skipped with a message when npm is missing.
#   artillery 2.0.20 from npm (the last for Node 18 to 20), into
#     $TOOLS/artillery, linked as $TOOLS/bin/artillery: without its
#     packages' install scripts (playwright's downloads a browser) and with
#     TypeScript 5.6.3 (npm resolves 7, whose missing JavaScript API breaks
#     artillery's command line: "Cannot read properties of undefined
#     (reading 'BarBarToken')"); skipped with a message when npm is missing.
#   jmeter-run, when Debian's jmeter and a java are installed: a launcher
#     in $TOOLS/bin that runs jmeter-Run.java (beside this script) with
#     java's source launcher on JMeter's jars. It stands for jmeter -n -t
#     plan.jmx -l results.jtl, building the plan with JMeter's API, because
#     Debian's JMeter 2.13 cannot load a .jmx (XStream's
#     ForbiddenClassException for org.apache.jmeter.save.ScriptWrapper).
#   wrk2 (not packaged): built from a local copy of github:giltene/wrk2 when
#     WRK2_GIT_DIR names its git directory (a bare repository or .git),
#     into $TOOLS/src/wrk2, binary $TOOLS/bin/wrk2; skipped with a message
#     otherwise. Needs make, a C compiler and libssl-dev.
#
# TOOLS defaults to .tools under the repository (git-ignored).
# Usage: app/experiment/tools/install.sh   (or: make tools)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
TOOLS=${TOOLS:-$root/.tools}
GO=${GO:-go}
mkdir -p "$TOOLS/bin" "$TOOLS/src"
status=0

# Debian packages.
missing=""
command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
command -v hey >/dev/null 2>&1 || missing="$missing hey"
command -v locust >/dev/null 2>&1 || missing="$missing python3-locust"
command -v ab >/dev/null 2>&1 || missing="$missing apache2-utils"
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "install: apt-get install$missing"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing || status=1
	else
		echo "install: missing Debian packages:$missing (run as root on Debian: apt-get install$missing)"
	fi
fi

# Go modules into $TOOLS/bin.
goinstall() { # name module@version
	if [ -x "$TOOLS/bin/$1" ]; then
		return 0
	fi
	echo "install: GOBIN=$TOOLS/bin $GO install $2"
	GOBIN="$TOOLS/bin" "$GO" install "$2" || { echo "install: $1 failed ($2)"; status=1; }
}
goinstall vegeta github.com/tsenart/vegeta/v12@v12.13.0
goinstall fortio fortio.org/fortio@v1.66.0
goinstall bombardier github.com/codesenberg/bombardier@v1.2.6

# autocannon from npm.
if [ -x "$TOOLS/bin/autocannon" ]; then
	:
elif command -v npm >/dev/null 2>&1; then
	echo "install: npm install --prefix $TOOLS/node autocannon@9.0.0"
	if npm install --prefix "$TOOLS/node" autocannon@9.0.0 >"$TOOLS/node-install.log" 2>&1; then
		ln -sf "$TOOLS/node/node_modules/.bin/autocannon" "$TOOLS/bin/autocannon"
	else
		echo "install: autocannon failed: see $TOOLS/node-install.log"
		status=1
	fi
else
	echo "install: autocannon skipped: npm is not installed (on Debian: apt-get install npm)"
fi

# artillery from npm.
if [ -x "$TOOLS/bin/artillery" ]; then
	:
elif command -v npm >/dev/null 2>&1; then
	echo "install: npm install --ignore-scripts --prefix $TOOLS/artillery artillery@2.0.20 typescript@5.6.3"
	if PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --ignore-scripts --no-audit --no-fund --prefix "$TOOLS/artillery" artillery@2.0.20 typescript@5.6.3 >"$TOOLS/artillery-install.log" 2>&1; then
		ln -sf "$TOOLS/artillery/node_modules/.bin/artillery" "$TOOLS/bin/artillery"
	else
		echo "install: artillery failed: see $TOOLS/artillery-install.log"
		status=1
	fi
else
	echo "install: artillery skipped: npm is not installed (on Debian: apt-get install npm)"
fi

# jmeter-run: JMeter's plan built by jmeter-Run.java.
jm=/usr/share/jmeter
if [ -x "$TOOLS/bin/jmeter-run" ]; then
	:
elif [ ! -f "$jm/bin/ApacheJMeter.jar" ] || ! command -v java >/dev/null 2>&1; then
	echo "install: jmeter-run skipped: JMeter is not installed (on Debian, as root: apt-get install jmeter; it brings java)"
else
	echo "install: $TOOLS/bin/jmeter-run (java on $jm's jars, the plan from $here/jmeter-Run.java)"
	cat >"$TOOLS/bin/jmeter-run" <<EOF
#!/bin/sh
# jmeter -n -t plan.jmx -l results.jtl, the plan built by jmeter-Run.java
# (arguments: host port threads seconds results.jtl [ctt=N] [rampup=S] [property=value ...]).
CP="$jm/bin/ApacheJMeter.jar:\$(ls $jm/lib/ext/*.jar $jm/lib/*.jar | tr '\n' ':')"
exec java -cp "\$CP" "$here/jmeter-Run.java" "\$@"
EOF
	chmod +x "$TOOLS/bin/jmeter-run"
fi

# wrk2 from a local copy.
if [ -x "$TOOLS/bin/wrk2" ]; then
	:
elif [ -z "${WRK2_GIT_DIR:-}" ]; then
	echo "install: wrk2 skipped: set WRK2_GIT_DIR to a git directory of github.com/giltene/wrk2 (it is not packaged; building it needs make, gcc and libssl-dev)"
else
	src="$TOOLS/src/wrk2"
	rm -rf "$src" && mkdir -p "$src"
	echo "install: wrk2 from $WRK2_GIT_DIR into $src"
	if git --git-dir="$WRK2_GIT_DIR" archive HEAD | tar -x -C "$src" &&
		make -C "$src" -j2 >"$src/build.log" 2>&1; then
		cp "$src/wrk" "$TOOLS/bin/wrk2"
	else
		echo "install: wrk2 build failed: see $src/build.log"
		status=1
	fi
fi

for t in wrk hey locust ab; do
	p=$(command -v $t 2>/dev/null) && echo "tool $t $p" || echo "tool $t missing"
done
for t in vegeta fortio bombardier autocannon artillery jmeter-run wrk2; do
	[ -x "$TOOLS/bin/$t" ] && echo "tool $t $TOOLS/bin/$t" || echo "tool $t missing"
done
exit $status
