//go:build !wasm

package site

import (
	"bytes"
	"sort"
)

// go-app writes an element's attributes in the order of a map (v10.1.11
// pkg/app/node.go:703 encodeHTML ranges over them), so two builds of the
// same source wrote the same page with its attributes in another order:
// another file, another content hash and ETag, and a browser's cached
// copy thrown away for nothing. sortAttrs writes each start tag of the
// page with its attributes sorted by name, so that their order is the
// same every build (TestSortAttrs). The pages are not yet the same bytes:
// the prerendered state holds the build's own timings (the cost line's
// ms, the charts' data-ms and data-mem) and how many times it rendered
// (data-seq).
//
// It reads what go-app writes, head and body: "<tag", then " name" or
// " name=" and the value as strconv.Quote gives it (a backslash escapes
// the next byte; a raw '>' may sit inside), then ">". Text is
// HTML-escaped, so a '<' in it is not raw; the bodies of script and style
// elements are copied as they are, and so is a tag it does not read so
// (a doctype, a comment, an end tag, a value in single quotes).
func sortAttrs(page []byte) []byte {
	out := make([]byte, 0, len(page))
	i := 0
	for i < len(page) {
		lt := bytes.IndexByte(page[i:], '<')
		if lt < 0 {
			out = append(out, page[i:]...)
			break
		}
		out = append(out, page[i:i+lt]...)
		i += lt
		tag, attrs, attrsEnd, end, ok := startTag(page, i)
		if !ok {
			// An end tag, a comment, a doctype or what it does not read:
			// copied up to its '>' as it is.
			gt := bytes.IndexByte(page[i:], '>')
			if gt < 0 {
				out = append(out, page[i:]...)
				break
			}
			out = append(out, page[i:i+gt+1]...)
			i += gt + 1
			continue
		}
		sort.SliceStable(attrs, func(a, b int) bool { return attrs[a].name < attrs[b].name })
		out = append(out, '<')
		out = append(out, tag...)
		for _, a := range attrs {
			out = append(out, a.raw...)
		}
		out = append(out, page[attrsEnd:end]...)
		i = end
		if t := string(tag); t == "script" || t == "style" {
			// Its body is not HTML: copied up to its end tag (go-app
			// writes tag names in lower case).
			c := bytes.Index(page[i:], []byte("</"+t))
			if c < 0 {
				out = append(out, page[i:]...)
				break
			}
			out = append(out, page[i:i+c]...)
			i += c
		}
	}
	return out
}

// attr is one attribute of a start tag as written: its name, and its
// bytes from the space before it to the end of its value.
type attr struct {
	name string
	raw  []byte
}

// startTag reads the start tag at page[i] ('<'): its name, its
// attributes, the index after the last of them (before "/>" or ">") and
// the index after its '>'. ok is false when page[i:] is not a start tag
// it reads.
func startTag(page []byte, i int) (tag []byte, attrs []attr, attrsEnd, end int, ok bool) {
	j := i + 1
	for j < len(page) && isNameByte(page[j]) {
		j++
	}
	if j == i+1 || !isLetter(page[i+1]) {
		return nil, nil, 0, 0, false
	}
	tag = page[i+1 : j]
	for j < len(page) {
		switch page[j] {
		case '>':
			return tag, attrs, j, j + 1, true
		case '/':
			if j+1 < len(page) && page[j+1] == '>' {
				return tag, attrs, j, j + 2, true
			}
			return nil, nil, 0, 0, false
		case ' ':
			k := j + 1
			for k < len(page) && isNameByte(page[k]) {
				k++
			}
			if k == j+1 {
				return nil, nil, 0, 0, false
			}
			name := string(page[j+1 : k])
			if k < len(page) && page[k] == '=' {
				k++
				if k >= len(page) || page[k] != '"' {
					return nil, nil, 0, 0, false
				}
				k++
				for k < len(page) && page[k] != '"' {
					if page[k] == '\\' {
						k++
					}
					k++
				}
				if k >= len(page) {
					return nil, nil, 0, 0, false
				}
				k++ // the closing quote
			}
			attrs = append(attrs, attr{name: name, raw: page[j:k]})
			j = k
		default:
			return nil, nil, 0, 0, false
		}
	}
	return nil, nil, 0, 0, false
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isNameByte(b byte) bool {
	return isLetter(b) || b >= '0' && b <= '9' || b == '-' || b == '_' || b == ':' || b == '.'
}
