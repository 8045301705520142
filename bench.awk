# Turns `go test -bench` lines into "BENCH <name>.<where> <value> <unit>":
# BenchmarkSim/closed-2 ... 1.76 ns/request  ->  BENCH sim.closed.native 1.76 ns/request
# Every custom metric (ns/request, ms/plot, ...) of a line is printed; the
# standard ns/op, B/op and allocs/op are left out.
/^Benchmark/ {
	name = $1
	sub(/^Benchmark/, "", name)
	sub(/-[0-9]+$/, "", name)
	gsub(/\//, ".", name)
	name = tolower(name)
	for (i = 3; i < NF; i += 2) {
		unit = $(i + 1)
		if (unit == "ns/op" || unit == "B/op" || unit == "allocs/op" || unit == "MB/s") continue
		print "BENCH " name "." where " " $i " " unit
	}
}
