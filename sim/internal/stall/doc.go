// Package stall is the server's stall schedule and the stall model over
// it: stall j is [First + j·Every, First + j·Every + Length), a request
// that would start inside a stall starts at its end, and a stall that
// begins strictly inside a service adds its length to it (ServeFrom), in
// closed form over however many stalls a service spans; ServiceStart
// inverts it. sim's server, walk, long path and event engine serve
// through it, and sim/window reads a window's stalls with it.
//
// It was sim's server.go (and long.go's zoneEnd). It may import no package
// of the project.
package stall
