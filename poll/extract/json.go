package extract

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON reader for the scripts extraction reads (JSON-LD, app state). It
// builds exactly what encoding/json builds when it decodes into an `any`
// (map[string]any, []any, string, float64 or json.Number, bool, nil), and fails
// where encoding/json fails, but in one pass without reflection: on the small
// pages of unknown sites, decoding JSON with encoding/json cost as much as
// parsing the page. TestJSONMatchesEncodingJSON and FuzzJSONDecode compare the two.
//
// The script readers use its pairs form, which stands for the same values
// without an allocation per value: objects as jobj, arrays as jarr, strings
// as jstr and numbers as jnum, all pointers into blocks the reader reuses
// (an interface holding a string, a float64 or a slice header boxes it, and
// boxing was most of the allocations of a page with JSON-LD).

// maxJSONDepth is encoding/json's nesting limit.
const maxJSONDepth = 10000

// unmarshalJSON is json.Unmarshal(s, &v) into v any: s must hold one value and
// nothing but JSON white space after it.
func unmarshalJSON(s string) (any, bool) {
	d := jsonReader{s: s}
	return d.whole()
}

// whole reads one value and then nothing but white space to the end.
func (d *jsonReader) whole() (any, bool) {
	v, ok := d.value()
	if !ok {
		return nil, false
	}
	d.space()
	if d.i != len(d.s) {
		return nil, false
	}
	return v, true
}

// decodeFirstJSON is json.NewDecoder(strings.NewReader(s)) with UseNumber,
// then Decode(&v) into v any: the first value of s, whatever follows it.
func decodeFirstJSON(s string) (any, bool) {
	d := jsonReader{s: s, useNumber: true}
	return d.value()
}

// unmarshalJSONPairs is unmarshalJSON with objects read as jobj instead of
// map[string]any, arrays as jarr, strings as jstr and numbers as jnum (what the
// script readers use: no hashing, no allocation per value).
func unmarshalJSONPairs(s string) (any, bool) {
	var d jsonReader
	return d.unmarshalPairs(s)
}

// decodeFirstJSONPairs is decodeFirstJSON with objects read as jobj, arrays
// as jarr, strings as jstr and numbers as jnum.
func decodeFirstJSONPairs(s string) (any, bool) {
	var d jsonReader
	return d.decodeFirstPairs(s)
}

// unmarshalPairs is unmarshalJSONPairs reading with d, whose blocks and
// scratch may be left from earlier scripts: what it returns lives in them, so
// it is valid until d.reset.
func (d *jsonReader) unmarshalPairs(s string) (any, bool) {
	d.start(s, false)
	return d.whole()
}

// decodeFirstPairs is decodeFirstJSONPairs reading with d (see unmarshalPairs).
func (d *jsonReader) decodeFirstPairs(s string) (any, bool) {
	d.start(s, true)
	return d.value()
}

// start sets d to read s, keeping its blocks (carving goes on after what
// earlier scripts took) and scratch.
func (d *jsonReader) start(s string, useNumber bool) {
	clear(d.stack)
	clear(d.values)
	d.s, d.i, d.depth, d.useNumber, d.pairs = s, 0, 0, useNumber, true
	d.stack, d.values = d.stack[:0], d.values[:0]
}

// reset drops everything d read (the values it returned must be out of use)
// and keeps its scratch and its last blocks for the next page, unless large.
func (d *jsonReader) reset() {
	const keep = 1 << 12
	clear(d.stack[:cap(d.stack)])
	clear(d.values[:cap(d.values)])
	clear(d.objs)
	clear(d.block)
	clear(d.arrs)
	clear(d.strs)
	clear(d.heads)
	// Field by field, not by assigning a new reader: that went through a
	// temporary copied back with a write barrier on every pointer slot while
	// the collector marked. (TestPageResetLeavesNothing checks every field.)
	d.s, d.i, d.depth, d.useNumber, d.pairs = "", 0, 0, false, false
	d.stack, d.values, d.objs, d.block = d.stack[:0], d.values[:0], d.objs[:0], d.block[:0]
	d.arrs, d.strs, d.heads = d.arrs[:0], d.strs[:0], d.heads[:0]
	if cap(d.stack) > keep {
		d.stack = nil
	}
	if cap(d.values) > keep {
		d.values = nil
	}
	if cap(d.block) > keep { // (a block is larger than 1024 for one long object only)
		d.block = nil
	}
	if cap(d.arrs) > keep {
		d.arrs = nil
	}
	if cap(d.strs) > keep {
		d.strs = nil
	}
	if cap(d.heads) > keep {
		d.heads = nil
	}
}

// jstr is a JSON string read by the pairs reader: a pointer to its value,
// which is carved from the reader's blocks. An interface holding a string
// boxes it (an allocation for every string of a script, the reader's main
// cost when it built strings); it holds a pointer as it is.
type jstr struct{ p *string }

// val is the string's value.
func (s jstr) val() string { return *s.p }

// jnum is a JSON number read by the pairs reader: its literal (valid JSON,
// and in range for a float64 when read as encoding/json reads into an any),
// held as jstr holds a string. It stands for float64(literal) to the JSON-LD
// readers (json.Unmarshal) and for json.Number(literal) to the app-state ones
// (a Decoder with UseNumber); it is parsed only when used.
type jnum struct{ p *string }

// lit is the number's literal (its json.Number).
func (n jnum) lit() string { return *n.p }

// float is the number's float64 value (as json.Unmarshal gives it).
func (n jnum) float() float64 {
	if lit := *n.p; smallInt(lit) {
		return smallIntValue(lit)
	}
	f, _ := strconv.ParseFloat(*n.p, 64) // (valid: checked when read)
	return f
}

// smallIntValue is the value of a literal smallInt accepts: the integer
// itself, exact, as ParseFloat's is (below 10^15 < 2^53), without its parse
// (most numbers of a listing are such). TestAppendFloatMatchesStrconv holds
// it to ParseFloat.
func smallIntValue(lit string) float64 {
	var v uint64
	for i := 0; i < len(lit); i++ {
		v = v*10 + uint64(lit[i]-'0')
	}
	return float64(v)
}

// smallInt reports an integer literal of 1 to 15 digits without a leading
// zero ("0" itself is one): its value is a float64 exactly, and its shortest
// form.
func smallInt(lit string) bool {
	if len(lit) == 0 || len(lit) > 15 || lit[0] == '0' && len(lit) > 1 {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] < '0' || lit[i] > '9' {
			return false
		}
	}
	return true
}

// jarr is a JSON array read by the pairs reader: a pointer to its elements
// (nil for an empty array), their slice carved from the reader's blocks as
// jstr's string is (an interface holding a slice boxes its header).
type jarr struct{ p *[]any }

// elems are the array's elements.
func (a jarr) elems() []any { return *a.p }

// jobj is a JSON object as its members in document order, each key once: a
// key repeated keeps its first place and its last value (a map keeps the last
// value too, and has no order). It stands for the map[string]any that
// encoding/json builds; the readers only look keys up and, for app state, visit
// every member (in an order a map could visit them in). It is one pointer, so
// an any holds it without an allocation; the zero jobj stands for a nil map.
type jobj struct{ d *jobjData }

type jobjData struct{ ms []jpair }

type jpair struct {
	k string
	v any
}

// newJobj is an object of the given members.
func newJobj(ms ...jpair) jobj { return jobj{&jobjData{ms}} }

// members are the object's members (to visit or reorder).
func (o jobj) members() []jpair {
	if o.d == nil {
		return nil
	}
	return o.d.ms
}

// get is m[k] of the map the object stands for.
func (o jobj) get(k string) any {
	v, _ := o.lookup(k)
	return v
}

// lookup is v, ok := m[k] of the map the object stands for.
func (o jobj) lookup(k string) (any, bool) {
	if o.d == nil {
		return nil, false
	}
	for i := range o.d.ms {
		if o.d.ms[i].k == k {
			return o.d.ms[i].v, true
		}
	}
	return nil, false
}

type jsonReader struct {
	s         string
	i         int
	depth     int
	useNumber bool
	// pairs: objects are read as jobj; their members are gathered on stack.
	pairs  bool
	stack  []jpair
	values []any // the elements of the arrays being read (pairs only)
	// objects and their members are carved from blocks (a few allocations
	// per script rather than two per object).
	objs  []jobjData
	block []jpair
	// arrs: the arrays' elements, carved likewise (pairs only).
	arrs []any
	// strs: the values of strings and the literals of numbers, which jstr
	// and jnum point at; heads: the arrays' slices, which jarr points at
	// (pairs only).
	strs  []string
	heads [][]any
}

// newObject returns an object holding a copy of ms.
func (d *jsonReader) newObject(ms []jpair) jobj {
	if len(d.objs) == cap(d.objs) {
		d.objs = make([]jobjData, 0, min(max(8, 2*cap(d.objs)), 256))
	}
	var own []jpair
	if len(ms) > 0 {
		if cap(d.block)-len(d.block) < len(ms) {
			d.block = make([]jpair, 0, max(len(ms), min(max(16, 2*cap(d.block)), 1024)))
		}
		own = d.block[len(d.block) : len(d.block)+len(ms) : len(d.block)+len(ms)]
		d.block = d.block[:len(d.block)+len(ms)]
		copy(own, ms)
	}
	d.objs = append(d.objs, jobjData{own})
	return jobj{&d.objs[len(d.objs)-1]}
}

// newStr returns a pointer to a copy of s, carved from d.strs.
func (d *jsonReader) newStr(s string) *string {
	if len(d.strs) == cap(d.strs) {
		d.strs = make([]string, 0, min(max(16, 2*cap(d.strs)), 1024))
	}
	d.strs = append(d.strs, s)
	return &d.strs[len(d.strs)-1]
}

// newArray returns an array of a copy of vs, carved from d.arrs and d.heads.
func (d *jsonReader) newArray(vs []any) jarr {
	if len(d.heads) == cap(d.heads) {
		d.heads = make([][]any, 0, min(max(8, 2*cap(d.heads)), 256))
	}
	d.heads = append(d.heads, nil)
	h := &d.heads[len(d.heads)-1]
	if len(vs) > 0 {
		*h = d.copyElems(vs)
	}
	return jarr{h}
}

// copyElems returns a copy of vs (not empty), carved from d.arrs.
func (d *jsonReader) copyElems(vs []any) []any {
	n := len(vs)
	if cap(d.arrs)-len(d.arrs) < n {
		d.arrs = make([]any, 0, max(n, min(max(16, 2*cap(d.arrs)), 1024)))
	}
	a := d.arrs[len(d.arrs) : len(d.arrs)+n : len(d.arrs)+n]
	d.arrs = d.arrs[:len(d.arrs)+n]
	copy(a, vs)
	return a
}

func (d *jsonReader) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonReader) value() (any, bool) {
	d.space()
	if d.i >= len(d.s) {
		return nil, false
	}
	switch c := d.s[d.i]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, ok := d.str()
		if !ok {
			return nil, false
		}
		if d.pairs {
			return jstr{d.newStr(s)}, true
		}
		return s, true // may share the script's memory: see detach
	case 't':
		return d.literal("true", true)
	case 'f':
		return d.literal("false", false)
	case 'n':
		return d.literal("null", nil)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return d.number()
		}
		return nil, false
	}
}

func (d *jsonReader) literal(lit string, v any) (any, bool) {
	if !strings.HasPrefix(d.s[d.i:], lit) {
		return nil, false
	}
	d.i += len(lit)
	return v, true
}

// number reads a number with JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *jsonReader) number() (any, bool) {
	s, i := d.s, d.i
	start := i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return nil, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	exp := i < len(s) && (s[i] == 'e' || s[i] == 'E')
	if exp {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return nil, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	d.i = i
	lit := s[start:i]
	if d.pairs {
		// Only a literal with an exponent or of over 308 digits can be
		// out of a float64's range (encoding/json fails on it then).
		if !d.useNumber && (exp || len(lit) > 300) {
			if _, err := strconv.ParseFloat(lit, 64); err != nil {
				return nil, false
			}
		}
		return jnum{d.newStr(lit)}, true
	}
	if d.useNumber {
		return json.Number(lit), true
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, false // out of range: encoding/json fails too
	}
	return f, true
}

func (d *jsonReader) object() (any, bool) {
	d.depth++
	if d.depth > maxJSONDepth {
		return nil, false
	}
	if d.pairs {
		return d.pairObject()
	}
	d.i++ // '{'
	m := make(map[string]any)
	if d.closes('}') {
		return m, true
	}
	for {
		k, v, ok := d.member()
		if !ok {
			return nil, false
		}
		m[k] = v
		if more, ok := d.more('}'); !ok {
			return nil, false
		} else if !more {
			return m, true
		}
	}
}

// closes reports whether the container just opened closes at once (after
// white space) with closer, and then reads it.
func (d *jsonReader) closes(closer byte) bool {
	d.space()
	if d.i < len(d.s) && d.s[d.i] == closer {
		d.i++
		d.depth--
		return true
	}
	return false
}

// member reads one object member, `"key": value`.
func (d *jsonReader) member() (string, any, bool) {
	d.space()
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		return "", nil, false
	}
	k, ok := d.str()
	if !ok {
		return "", nil, false
	}
	d.space()
	if d.i >= len(d.s) || d.s[d.i] != ':' {
		return "", nil, false
	}
	d.i++
	v, ok := d.value()
	return k, v, ok
}

// more reads what follows a member or an element: a comma (more is true) or
// closer (the container ends). ok is false for anything else.
func (d *jsonReader) more(closer byte) (more, ok bool) {
	d.space()
	if d.i >= len(d.s) {
		return false, false
	}
	switch d.s[d.i] {
	case ',':
		d.i++
		return true, true
	case closer:
		d.i++
		d.depth--
		return false, true
	}
	return false, false
}

// reorderMembers, when set (by a test), reorders each object's members as it
// is read: the readers must not depend on the order (a map has none).
var reorderMembers func(jobj)

// dedupeFrom is how many members an object gathers before a repeated key is
// looked for with a map rather than along the list.
const dedupeFrom = 32

// pairObject is object for d.pairs (d.depth already counted).
func (d *jsonReader) pairObject() (any, bool) {
	d.i++ // '{'
	start := len(d.stack)
	var index map[string]int // key → place in d.stack, once the object is long
	// keys marks the keys read so far by keyBit: a key whose bit is not set
	// is not among them (most keys), and the list is not searched.
	var keys uint64
	if d.closes('}') {
		return d.newObject(nil), true
	}
	for {
		k, v, ok := d.member()
		if !ok {
			return nil, false
		}
		// A key seen before in this object: the later value replaces it.
		dup := -1
		if members := d.stack[start:]; len(members) < dedupeFrom {
			if bit := keyBit(k); keys&bit == 0 {
				keys |= bit
			} else {
				for j := range members {
					if members[j].k == k {
						dup = start + j
						break
					}
				}
			}
		} else {
			if index == nil {
				index = make(map[string]int, 2*len(members))
				for j := range members {
					index[members[j].k] = start + j
				}
			}
			if j, ok := index[k]; ok {
				dup = j
			} else {
				index[k] = len(d.stack)
			}
		}
		if dup >= 0 {
			d.stack[dup].v = v
		} else {
			d.stack = append(d.stack, jpair{k, v})
		}
		if more, ok := d.more('}'); !ok {
			return nil, false
		} else if !more {
			o := d.newObject(d.stack[start:])
			if reorderMembers != nil {
				reorderMembers(o)
			}
			// (The members left past the stack's end are not cleared:
			// they point into this page's script and blocks, which stay
			// until reset, which clears the whole stack.)
			d.stack = d.stack[:start]
			return o, true
		}
	}
}

// keyBit is one of 64 bits, by k's length and its first and last bytes:
// two keys of different bits differ.
func keyBit(k string) uint64 {
	if k == "" {
		return 1
	}
	return 1 << ((uint(len(k))*7 + uint(k[0]) + uint(k[len(k)-1])*3) & 63)
}

func (d *jsonReader) array() (any, bool) {
	d.depth++
	if d.depth > maxJSONDepth {
		return nil, false
	}
	d.i++ // '['
	if d.pairs {
		return d.pairArray()
	}
	a := []any{}
	if d.closes(']') {
		return a, true
	}
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if more, ok := d.more(']'); !ok {
			return nil, false
		} else if !more {
			return a, true
		}
	}
}

// pairArray is array for d.pairs (after the '['): the elements are gathered on
// d.values and copied into a slice of their number.
func (d *jsonReader) pairArray() (any, bool) {
	if d.closes(']') {
		return d.newArray(nil), true
	}
	start := len(d.values)
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		d.values = append(d.values, v)
		if more, ok := d.more(']'); !ok {
			return nil, false
		} else if !more {
			a := d.newArray(d.values[start:])
			d.values = d.values[:start] // (cleared by reset, as the stack)
			return a, true
		}
	}
}

// str reads a string literal at d.i (on its opening quote) and returns its
// value as encoding/json unquotes it (invalid UTF-8 and lone surrogates become
// U+FFFD). Without escapes and invalid bytes the result is a part of d.s.
//
// Most bytes of a string need no look: the inner loops skip printable ASCII
// eight bytes at a time, to the first byte of a word that is not plain, or
// byte by byte by a table lookup near the end (every byte went
// through the switch before, most of the time spent reading a script: nearly
// half). TestStrMatchesByteScan and TestStrWordsMatchTable hold the word loop
// to the byte loop alone.
func (d *jsonReader) str() (string, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	s := d.s
	i := d.i + 1
	start := i
	simple := true
	for {
		// Words of eight strPlain bytes, by the bit tricks for "has a
		// byte less than n" and "has a zero byte" (exact as to whether
		// there is one, which is all that is asked: where is left to the
		// byte loop): w's high bits (non-ASCII), control bytes (below ' '),
		// quotes, backslashes. (Written out here: as a function it is
		// too large to inline. The compiler loads the eight bytes as one
		// word, checked once.)
		for ; i+8 <= len(s); i += 8 {
			b := s[i : i+8]
			w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			q, e := w^(ones*'"'), w^(ones*'\\')
			if m := (w | (w-ones*' ')&^w | (q-ones)&^q | (e-ones)&^e) & highs; m != 0 {
				// The lowest bit set is exact (a borrow only marks
				// bytes above a byte it was meant to mark): the first
				// byte that is not strPlain.
				i += bits.TrailingZeros64(m) >> 3
				break
			}
		}
		for i < len(s) && strPlain[s[i]] {
			i++
		}
		if i >= len(s) {
			return "", false
		}
		switch c := s[i]; {
		case c == '"':
			d.i = i + 1
			if simple {
				return s[start:i], true
			}
			return unquoteJSON(s[start:i]), true
		case c == '\\':
			simple = false
			i++
			if i >= len(s) {
				return "", false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 > len(s) {
					return "", false
				}
				for _, h := range []byte(s[i+1 : i+5]) {
					if !isHex(h) {
						return "", false
					}
				}
				i += 5
			default:
				return "", false
			}
		case c < ' ':
			return "", false
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				simple = false
			}
			i += size
		}
	}
}

// strPlain marks the bytes a string literal holds as they are: printable
// ASCII but the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= ' ' && c < utf8.RuneSelf && c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquoteJSON decodes the body of a string literal already checked by str.
func unquoteJSON(s string) string {
	b := make([]byte, 0, len(s)+2*utf8.UTFMax)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			if e, ok := shortEscape(s[i]); ok {
				b = append(b, e)
				i++
				continue
			}
			switch s[i] {
			case 'u':
				rr := getu4(s[i-1:])
				i += 5
				if utf16.IsSurrogate(rr) {
					rr1 := getu4(s[i:])
					if dec := utf16.DecodeRune(rr, rr1); dec != utf8.RuneError {
						i += 6
						b = utf8.AppendRune(b, dec)
						break
					}
					rr = utf8.RuneError
				}
				b = utf8.AppendRune(b, rr)
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// getu4 decodes \uXXXX from the beginning of s, returning the hex value, or -1.
func getu4(s string) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// shortEscape is the byte a one-letter JSON escape (after the backslash) stands for.
func shortEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}
