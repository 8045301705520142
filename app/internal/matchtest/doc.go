// Package matchtest holds a hand-written line matcher to the regular
// expression it stands for, for the tests of the readers that match lines
// by hand rather than by regexp (app/measure's .hlog lines, app/tools'
// printouts). Tests only: no program imports it. It may import none of the
// project's packages.
package matchtest
