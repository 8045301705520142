//go:build !race

package page

const raceEnabled = false
