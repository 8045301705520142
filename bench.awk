# Turns `go test -bench` lines into "BENCH <name>.<where> <value> <unit>":
# BenchmarkSim/closed-2 ... 1.76 ns/request  ->  BENCH sim.closed.native 1.76 ns/request
# The name is the benchmark's, lower case, with "/" as ".", after its
# package's name unless it starts with it. Every custom metric of a line
# (ns/request, ms/plot, ...) is printed; ns/op, B/op, allocs/op and MB/s are
# left out.
/^pkg:/ {
	pkg = $2
	sub(/.*\//, "", pkg)
}
/^Benchmark/ {
	name = $1
	sub(/^Benchmark/, "", name)
	sub(/-[0-9]+$/, "", name)
	gsub(/\//, ".", name)
	name = tolower(name)
	if (pkg != "" && index(name, pkg) != 1) name = pkg "." name
	for (i = 3; i < NF; i += 2) {
		unit = $(i + 1)
		if (unit == "ns/op" || unit == "B/op" || unit == "allocs/op" || unit == "MB/s") continue
		print "BENCH " name "." where " " $i " " unit
		# issue 23's name for a fit's time: fit.<format>.ms (native, and
		# .wasm.ms for node's wasm; the browser's is app's TestBrowserBenchFit)
		if (unit == "ms/fit") print "BENCH " name (where == "native" ? "" : "." where) ".ms " $i " ms"
	}
}
