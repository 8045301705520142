# Turns `go test -bench` lines into "BENCH <name>.<where> <value> <unit>":
# BenchmarkSim/closed-2 ... 1.76 ns/request  ->  BENCH sim.closed.native 1.76 ns/request
# The name is the benchmark's, lower case, with "/" as ".", after its
# package's name unless it starts with it (and, for a subpackage of sim,
# after "sim." too). Every custom metric of a line
# (ns/request, ms/plot, ...) is printed; ns/op, B/op, allocs/op and MB/s are
# left out.
/^pkg:/ {
	pkg = $2
	sub(/.*\//, "", pkg)
	# sim's subpackages keep the names their benchmarks had in sim:
	# omission/sim/sweep's Sweep/bench_stall50 is sim.sweep.bench_stall50.
	parent = ($2 ~ /^omission\/sim\/[^\/]+$/) ? "sim." : ""
}
/^Benchmark/ {
	name = $1
	sub(/^Benchmark/, "", name)
	sub(/-[0-9]+$/, "", name)
	gsub(/\//, ".", name)
	name = tolower(name)
	if (pkg != "" && index(name, pkg) != 1) name = pkg "." name
	name = parent name
	for (i = 3; i < NF; i += 2) {
		unit = $(i + 1)
		if (unit == "ns/op" || unit == "B/op" || unit == "allocs/op" || unit == "MB/s") continue
		print "BENCH " name "." where " " $i " " unit
		# issue 23's name for a fit's time: fit.<format>.ms (native, and
		# .wasm.ms for node's wasm; the browser's is app's TestBrowserBenchFit)
		if (unit == "ms/fit") print "BENCH " name (where == "native" ? "" : "." where) ".ms " $i " ms"
	}
}
