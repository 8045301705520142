package charts

import (
	"omission/app/jsonread"
	"omission/sim"
)

// UnmarshalJSON reads a chart as encoding/json would, without reflection
// (package jsonread says why): the page decodes the static HTML's charts
// when it takes it over and each chart the worker draws.
// TestUnmarshalMatchesJSON holds it to encoding/json field by field.
func (c *Chart) UnmarshalJSON(b []byte) error {
	r := jsonread.New(b)
	c.ReadJSON(r)
	return r.End()
}

// ReadJSON reads a chart, the next value of r, into c (UnmarshalJSON for a
// reader of a larger value).
func (c *Chart) ReadJSON(r *jsonread.Reader) {
	r.Object(func(k string) {
		switch k {
		case "Kind":
			c.Kind = Kind(r.Int())
		case "Width":
			c.Width = int(r.Int())
		case "Height":
			c.Height = int(r.Int())
		case "SVG":
			c.SVG = r.String()
		case "Src":
			c.Src = r.String()
		case "Title":
			c.Title = r.String()
		case "Caption":
			c.Caption = r.String()
		case "Table":
			r.Object(func(k string) {
				switch k {
				case "Header":
					c.Table.Header = r.Strings()
				case "Rows":
					c.Table.Rows = nil
					r.Array(func() { c.Table.Rows = append(c.Table.Rows, r.Strings()) })
				default:
					r.Skip()
				}
			})
		case "Markers":
			c.Markers = nil
			r.Array(func() {
				var m Marker
				r.Object(func(k string) {
					switch k {
					case "Recording":
						m.Recording = sim.Kind(r.Int())
					case "Percentile":
						m.Percentile = r.String()
					case "Fraction":
						m.Fraction = r.Float()
					case "Value":
						m.Value = r.Int()
					case "Check":
						m.Check = r.String()
					case "HasCheck":
						m.HasCheck = r.Bool()
					case "X":
						m.X = r.Float()
					case "Y":
						m.Y = r.Float()
					default:
						r.Skip()
					}
				})
				c.Markers = append(c.Markers, m)
			})
		case "Spots":
			c.Spots = nil
			r.Array(func() {
				var s Spot
				r.Object(func(k string) {
					switch k {
					case "Index":
						s.Index = int(r.Int())
					case "X":
						s.X = r.Float()
					case "Y":
						s.Y = r.Float()
					case "Refused":
						s.Refused = r.Bool()
					default:
						r.Skip()
					}
				})
				c.Spots = append(c.Spots, s)
			})
		case "Available":
			c.Available = r.Bool()
		default:
			r.Skip()
		}
	})
}
