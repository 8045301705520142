//go:build !race

package fit

const raceOn = false
