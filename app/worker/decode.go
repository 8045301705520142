package worker

import (
	"encoding/json"
	"strconv"

	"omission/app/charts"
	"omission/app/jsonread"
	"omission/app/view"
)

// DecodeResponse reads a worker's answer as encoding/json would, without
// reflection for what every step brings (package jsonread says why): the
// page decodes one with each result, each chart and each progress report,
// on its own thread. encoding/json's Unmarshal first scans the whole
// message and, the first time, builds its field tables for every type the
// answer can hold (in a cold load's profile, 75 ms of the page's thread);
// here the run's fields, its view and its charts are read as they come,
// and only what the page's other features bring (the tools, the files,
// the sweep, an export) is handed to encoding/json. TestDecodeResponse
// holds it to encoding/json field by field.
func DecodeResponse(b []byte) (Response, error) {
	var out Response
	r := jsonread.New(b)
	var rareErr error
	rare := func(v any) {
		if raw := r.Raw(); raw != nil {
			if err := json.Unmarshal(raw, v); err != nil && rareErr == nil {
				rareErr = err
			}
		}
	}
	r.Object(func(k string) {
		switch k {
		case "id":
			out.ID = r.Int()
		case "Gen":
			out.Gen = int(r.Int())
		case "Progress":
			out.Progress = r.Float()
		case "Sliced":
			out.Sliced = r.Bool()
		case "View":
			out.View = readView(r)
		case "Chart":
			if !r.Null() {
				out.Chart = new(charts.Chart)
				out.Chart.ReadJSON(r)
			}
		case "Charts":
			out.Charts = int(r.Int())
		case "err":
			out.Err = r.String()
		case "ToolsErr":
			out.ToolsErr = r.String()
		case "Vs":
			out.Vs = readView(r)
		case "VsErr":
			out.VsErr = r.String()
		case "Done":
			out.Done = r.Bool()
		case "Ms":
			out.Ms = r.Float()
		case "Mem":
			out.Mem = uint64(r.Int())
		case "Tools":
			rare(&out.Tools)
		case "Variants":
			rare(&out.Variants)
		case "Measured":
			rare(&out.Measured)
		case "Export":
			rare(&out.Export)
		case "Sweep":
			rare(&out.Sweep)
		default:
			r.Skip()
		}
	})
	if err := r.End(); err != nil {
		return Response{}, err
	}
	if rareErr != nil {
		return Response{}, rareErr
	}
	return out, nil
}

// readView reads a view or null.
func readView(r *jsonread.Reader) *view.View {
	if r.Null() {
		return nil
	}
	v := new(view.View)
	v.ReadJSON(r)
	return v
}

// EncodeRequest writes a request as encoding/json would, byte for byte,
// without building encoding/json's tables for the request's types on the
// page's thread (the first json.Marshal of one took 19 ms in a cold
// load's profile): the page sends one with every step. What only the
// page's other features send (files, a sweep, an export) is written by
// encoding/json. TestEncodeRequest holds it to json.Marshal.
func EncodeRequest(q Request) []byte {
	b := make([]byte, 0, 128+len(q.Query))
	str := func(s string) {
		v, _ := json.Marshal(s)
		b = append(b, v...)
	}
	boolean := func(v bool) {
		if v {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	}
	strs := func(key string, ss []string) {
		if len(ss) == 0 {
			return
		}
		b = append(b, ",\""+key+"\":["...)
		for i, s := range ss {
			if i > 0 {
				b = append(b, ',')
			}
			str(s)
		}
		b = append(b, ']')
	}
	other := func(key string, v any) {
		raw, _ := json.Marshal(v)
		b = append(b, ",\""+key+"\":"...)
		b = append(b, raw...)
	}
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, q.ID, 10)
	b = append(b, `,"Query":`...)
	str(q.Query)
	b = append(b, `,"Charts":{"Width":`...)
	b = strconv.AppendInt(b, int64(q.Charts.Width), 10)
	b = append(b, `,"Dark":`...)
	boolean(q.Charts.Dark)
	b = append(b, `,"Linear":`...)
	boolean(q.Charts.Linear)
	b = append(b, `,"CDF":`...)
	boolean(q.Charts.CDF)
	b = append(b, `},"Gen":`...)
	b = strconv.AppendInt(b, int64(q.Gen), 10)
	b = append(b, `,"Redraw":`...)
	boolean(q.Redraw)
	if q.Cancel {
		b = append(b, `,"cancel":true`...)
	}
	strs("Tools", q.Tools)
	if q.Vs != "" {
		b = append(b, `,"Vs":`...)
		str(q.Vs)
	}
	if len(q.Import) > 0 {
		other("Import", q.Import)
	}
	strs("Measured", q.Measured)
	strs("Incomplete", q.Incomplete)
	if q.Sweep != nil {
		other("Sweep", q.Sweep)
	}
	if q.SweepOnly {
		b = append(b, `,"SweepOnly":true`...)
	}
	if q.Export != nil {
		other("Export", q.Export)
	}
	return append(b, '}')
}
