package jsonfill

import (
	"reflect"
	"strconv"
	"strings"
)

// Fill sets every exported field of the struct *p points to, and of the
// structs, slices (two elements) and maps (two keys) under it: each
// string, number and bool gets a value of its own (strings hold a quote, a
// backslash, a control character, <, & and text outside ASCII).
func Fill(p any) {
	n := 0
	fill(reflect.ValueOf(p).Elem(), &n)
}

func fill(v reflect.Value, n *int) {
	*n++
	k := *n
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strconv.Itoa(k) + ` "q" \ ` + "\t<&> µ😀")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(k % 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(k % 100))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(k) + 0.25)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || strings.HasPrefix(f.Tag.Get("json"), "-") {
				continue
			}
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		fill(s.Index(0), n)
		fill(s.Index(1), n)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := 0; i < 2; i++ {
			key := reflect.New(v.Type().Key()).Elem()
			fill(key, n)
			val := reflect.New(v.Type().Elem()).Elem()
			fill(val, n)
			m.SetMapIndex(key, val)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), n)
		v.Set(p)
	}
}
