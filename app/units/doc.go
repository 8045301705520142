// Package units writes numbers for people: durations, counts, shares,
// ratios and nice axis steps. The page, the charts, the animation and the
// report all write their numbers through it, so a value reads the same
// everywhere. It may import only the standard library.
//
// Every number the page shows also carries its exact value (in a data
// attribute and on hover), so these functions choose a unit and a precision
// that read well; Raw writes a value exactly, for those attributes.
package units
