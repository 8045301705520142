//go:build !race

package tools

const raceDivisor = 1
