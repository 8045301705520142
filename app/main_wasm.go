//go:build wasm

package main

func nativeMain() {}
