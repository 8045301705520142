// Package cli is the program's command line (app's native build): the
// commands report, export, experiment, static and serve. Main runs one
// command line and returns its exit status; each command has a file of its
// own, and report's modes (-measured, -vs, -sweep, -fit, -tool) one each.
// It may import app/address, app/experiment, app/fit, app/measure,
// app/site, app/tools, app/ui, app/units, app/view, sim and sim/sweep.
//
// # Commands
//
//	app report [-json] [-measured FILE] [-vs QUERY2] QUERY
//	app report -tool NAME QUERY
//	app report [-json] -sweep FIELD:FROM..TO/N QUERY
//	app report [-json] -fit FILE [rate=R]
//	app export -format hgrm|hlog|csv [-recording NAME] [-sweep SPEC] QUERY
//	app experiment [-json] [-out DIR] [-with TOOL,…] QUERY
//	app static [-web DIR] [-out DIR] [-prefix /sub/path]
//	app serve [-addr 127.0.0.1:8000] [-web DIR] [-out DIR]
//
// QUERY is a query (sim/QUERY.md) or a whole share URL. The commands exit
// with status 0 on success, 1 when a check failed, and 2 for invalid input,
// with a message on stderr; a bad query's message names each bad field, its
// value and the range allowed. -h or -help after a command prints its usage
// and flags on stdout and exits 0 (one flag preamble, flags.go, parses every
// command's flags).
//
// report prints the page's headline in words first (view.Said: the run's
// summary line, each card's number with what is said beside it, the
// story), then each recording's count, mean, percentiles, maximum and
// count above the threshold ("none" where no call was answered, and under
// the table why a ratio is missing), the clients' requests planned and
// sent, and every check. Its JSON (-json) is sim.Report, with the same
// words under headline.{summary, cards[].{key, label, value, sub}, story,
// claim}: query (canonical),
// recordings.<name>.{count, mean_ns, p50_ns, p90_ns, p99_ns, p99_9_ns,
// p99_99_ns, max_ns, above, above_share}, clients.<name>.{planned, sent,
// stalls, last_completion_ns} and checks[].{id, kind, quantity, formula,
// substituted, want, got, pass}; sim/QUERY.md lists what it adds for the
// event engine. -tool and tools= are app/tools's, -measured app/measure's,
// -fit app/fit's, and experiment is app/experiment's: see each package.
//
// report -vs QUERY2 QUERY, or a share URL whose vs= holds the second query
// as the page's comparison writes it, runs both, prints the second run's
// report after the first, then the differences, second less first, per
// recording. The JSON gains vs (the second report, same shape) and
// delta.<recording>.{count, mean_ns, p50_ns, …, max_ns, above}.
//
// report -sweep SPEC QUERY, or a share URL whose sweep= holds the spec
// (sim/QUERY.md, "Sweeps"), runs the query once per point and prints a table
// per recording, a row per point: the field's value, the recording's p50,
// p99, p99.9, max and mean (as the page writes durations), its share above
// the threshold and the requests its client never sent; each refused point's
// reason follows the tables, and no line is wider than 100 columns. Its JSON
// is sweep.{field, spec, query, value, points[]}: each point has its value
// and canonical query and either the keys of that query's own report, equal
// to the digit (hash, engine, exact, planned, clients, recordings, passed,
// failed), or refused. A refused point does not stop the others; the command
// exits 1 when a point's check fails. export -format csv -sweep writes
// field, value, x, query, recording, count, mean_ns, p50_ns, …, max_ns,
// above, above_share, never_sent, refused: a row per point and recording
// (-recording NAME keeps one), x the value as a number (ns, requests per
// second or the count).
package cli
