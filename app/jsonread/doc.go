// Package jsonread reads JSON without reflection, for the few types the
// page decodes on its startup's path and at every step: the result's view
// (app/view) and the charts (app/charts). encoding/json sets up each type
// it decodes by reflection the first time it meets it, which cost the page
// some 25 to 110 ms when it took over the static HTML's result in
// Chromium on the build machine (60 ms for the first decode in Node, 4 to
// 10 ms for the next ones); the types' UnmarshalJSON methods read with
// this instead, and their tests hold them to encoding/json's own decoding
// of every field.
//
// It may import no package of the project.
package jsonread
