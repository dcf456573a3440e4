package scenarios

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// ---------------------------------------------------------------------------
// Duration

// Duration is a Go duration written as "30s", "5m", "1h30m" or 0.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats d like time.Duration ("1h30m0s").
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalYAML writes d as a Go duration string.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// UnmarshalYAML accepts a Go duration string or the bare number 0.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("expected a duration such as 30s, 5m or 1h30m, found %s", describeNode(n))
	}
	s := strings.TrimSpace(n.Value)
	if isPlainNumber(s) {
		f, err := strconv.ParseFloat(s, 64)
		switch {
		case err == nil && f == 0:
			*d = 0
			return nil
		case err == nil && f < 0:
			return fmt.Errorf("invalid duration %s: must not be negative", quoteValue(s))
		default:
			return fmt.Errorf("invalid duration %s: add a unit, e.g. %ss", quoteValue(s), strings.TrimPrefix(s, "+"))
		}
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid duration %s: use a Go duration such as 30s, 5m or 1h30m", quoteValue(s))
	}
	if v < 0 {
		return fmt.Errorf("invalid duration %s: must not be negative", quoteValue(s))
	}
	*d = Duration(v)
	return nil
}

// isPlainNumber reports whether s is [+-]digits[.digits] (or .digits).
func isPlainNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	digits, dots := 0, 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// ---------------------------------------------------------------------------
// Quantity

// Quantity is a Kubernetes resource quantity ("100m", "4", "8Gi", "1.5",
// "2e3", "128M"), stored in milli-units rounded up. The zero value is 0.
type Quantity struct {
	milli int64
	s     string
}

const quantityHint = "want a Kubernetes quantity such as 500m, 2, 128Mi or 4Gi"

var quantitySuffixes = map[string]struct{ base, exp int64 }{
	"Ki": {2, 10}, "Mi": {2, 20}, "Gi": {2, 30}, "Ti": {2, 40}, "Pi": {2, 50}, "Ei": {2, 60},
	"n": {10, -9}, "u": {10, -6}, "m": {10, -3}, "": {10, 0},
	"k": {10, 3}, "M": {10, 6}, "G": {10, 9}, "T": {10, 12}, "P": {10, 15}, "E": {10, 18},
}

// ParseQuantity parses a Kubernetes quantity: an optional '+', digits with an
// optional fraction, then an optional suffix (Ki Mi Gi Ti Pi Ei, n u m k M G
// T P E, or e/E and a signed integer exponent). Negative quantities and ones
// above about 9.2e15 units are rejected. The value is rounded up to the next
// milli-unit, like Kubernetes does.
func ParseQuantity(s string) (Quantity, error) {
	bad := func(why string) (Quantity, error) {
		return Quantity{}, fmt.Errorf("invalid quantity %s: %s", quoteValue(s), why)
	}
	if len(s) > 100 {
		return bad(quantityHint)
	}
	rest, negative := s, false
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		negative = rest[0] == '-'
		rest = rest[1:]
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	whole := rest[:i]
	frac := ""
	if i < len(rest) && rest[i] == '.' {
		j := i + 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		frac = rest[i+1 : j]
		i = j
	}
	if whole == "" && frac == "" {
		return bad(quantityHint)
	}
	suffix := rest[i:]
	base, exp := int64(10), int64(0)
	if sx, ok := quantitySuffixes[suffix]; ok {
		base, exp = sx.base, sx.exp
	} else if suffix[0] == 'e' || suffix[0] == 'E' {
		digits := strings.TrimLeft(suffix[1:], "+-")
		if len(suffix)-1-len(digits) > 1 || digits == "" || strings.Trim(digits, "0123456789") != "" {
			return bad(quantityHint)
		}
		e, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return bad(quantityHint)
		}
		// With at most 100 digits, clamping keeps the result (overflow, or a
		// tiny value that rounds up to 1m) unchanged and big numbers small.
		exp = max(-300, min(300, e))
	} else {
		return bad(quantityHint)
	}

	// milli = ceil(whole.frac * base^exp * 1000)
	mant, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return bad(quantityHint)
	}
	num, den := mant, big.NewInt(1)
	pow := func(b, e int64) *big.Int { return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), nil) }
	if base == 2 {
		num.Mul(num, pow(2, exp))
		exp = 0
	}
	exp10 := exp + 3 - int64(len(frac))
	if exp10 >= 0 {
		num.Mul(num, pow(10, exp10))
	} else {
		den = pow(10, -exp10)
	}
	milli, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if rem.Sign() != 0 {
		milli.Add(milli, big.NewInt(1))
	}
	if negative && milli.Sign() != 0 {
		return bad("must not be negative")
	}
	if !milli.IsInt64() {
		return bad("too large")
	}
	return Quantity{milli: milli.Int64(), s: s}, nil
}

// MustParseQuantity is like ParseQuantity but panics on error. For tests
// and constants.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// MilliValue returns q in thousandths of a unit.
func (q Quantity) MilliValue() int64 { return q.milli }

// Value returns q in whole units, rounded up like Kubernetes.
func (q Quantity) Value() int64 {
	v := q.milli / 1000
	if q.milli%1000 != 0 {
		v++
	}
	return v
}

// String returns q as written ("0" for the zero Quantity).
func (q Quantity) String() string {
	if q.s == "" {
		return strconv.FormatInt(q.milli/1000, 10) // "0" unless built by hand
	}
	return q.s
}

// IsZero reports whether q is 0.
func (q Quantity) IsZero() bool { return q.milli == 0 }

// MarshalYAML writes q as written.
func (q Quantity) MarshalYAML() (any, error) { return q.String(), nil }

// UnmarshalYAML accepts a quantity as a string or a number.
func (q *Quantity) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("expected a quantity such as 500m, 2, 128Mi or 4Gi, found %s", describeNode(n))
	}
	v, err := ParseQuantity(n.Value)
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// ---------------------------------------------------------------------------
// IntRange

// IntRange is a number or a range {min: A, max: B} (either bound optional);
// a plain number N means exactly N. The zero IntRange contains every number.
type IntRange struct {
	Min, Max       int64
	HasMin, HasMax bool
}

// Exactly returns the range holding only n.
func Exactly(n int64) IntRange { return IntRange{Min: n, Max: n, HasMin: true, HasMax: true} }

// Contains reports whether n is within r (bounds included).
func (r IntRange) Contains(n int64) bool {
	return (!r.HasMin || n >= r.Min) && (!r.HasMax || n <= r.Max)
}

// String returns "3", "at least 1", "at most 4", "3..4", or "any".
func (r IntRange) String() string {
	switch {
	case r.HasMin && r.HasMax && r.Min == r.Max:
		return strconv.FormatInt(r.Min, 10)
	case r.HasMin && r.HasMax:
		return strconv.FormatInt(r.Min, 10) + ".." + strconv.FormatInt(r.Max, 10)
	case r.HasMin:
		return "at least " + strconv.FormatInt(r.Min, 10)
	case r.HasMax:
		return "at most " + strconv.FormatInt(r.Max, 10)
	}
	return "any"
}

// MarshalYAML writes a number for an exact range, else {min, max}.
func (r IntRange) MarshalYAML() (any, error) {
	if r.HasMin && r.HasMax && r.Min == r.Max {
		return r.Min, nil
	}
	out := struct {
		Min *int64 `yaml:"min,omitempty"`
		Max *int64 `yaml:"max,omitempty"`
	}{}
	if r.HasMin {
		out.Min = &r.Min
	}
	if r.HasMax {
		out.Max = &r.Max
	}
	return out, nil
}

// UnmarshalYAML accepts an integer, or a mapping with min and/or max. Its
// errors carry positions (an ErrorList without a file name).
func (r *IntRange) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		v, err := yamlInt64(n)
		if err != nil {
			return err
		}
		*r = Exactly(v)
		return nil
	case yaml.MappingNode:
	default:
		return fmt.Errorf("expected an integer or a mapping with min and/or max, found %s", describeNode(n))
	}
	var out IntRange
	var errs ErrorList
	seen := make(map[string]Pos)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kp := nodePos(k)
		key := resolveAliasChain(k)
		if key == nil || key.Kind != yaml.ScalarNode {
			errs.Add("", kp, "expected min or max, found %s", describeNode(k))
			continue
		}
		if first, dup := seen[key.Value]; dup {
			errs.Add("", kp, "duplicate field %q (already set at %s)", key.Value, first)
			continue
		}
		seen[key.Value] = kp
		switch key.Value {
		case "min", "max":
			x, err := yamlInt64(v)
			if err != nil {
				errs.Add("", nodePos(v), "%s", err.Error())
				continue
			}
			if key.Value == "min" {
				out.Min, out.HasMin = x, true
			} else {
				out.Max, out.HasMax = x, true
			}
		default:
			msg := fmt.Sprintf("unknown field %q in range", key.Value)
			if s := suggestName(key.Value, []string{"min", "max"}); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += " (want min and/or max)"
			}
			errs.Add("", kp, "%s", msg)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if !out.HasMin && !out.HasMax {
		return errors.New("empty range: give min, max or both")
	}
	if out.HasMin && out.HasMax && out.Min > out.Max {
		return fmt.Errorf("invalid range: min %d is greater than max %d", out.Min, out.Max)
	}
	*r = out
	return nil
}

func resolveAliasChain(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// yamlInt64 decodes an integer scalar (whole floats such as 1e3 included).
func yamlInt64(n *yaml.Node) (int64, error) {
	r := resolveAliasChain(n)
	if r == nil {
		return 0, fmt.Errorf("expected an integer, found %s", describeNode(n))
	}
	if r.Kind != yaml.ScalarNode || r.ShortTag() == "!!null" {
		return 0, fmt.Errorf("expected an integer, found %s", describeNode(r))
	}
	switch r.ShortTag() {
	case "!!int":
		var v int64
		if err := r.Decode(&v); err != nil {
			return 0, fmt.Errorf("cannot use %s as an integer: out of range", quoteValue(r.Value))
		}
		return v, nil
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(r.Value, "_", ""), 64)
		if err == nil && f == math.Trunc(f) {
			if f >= -(1<<63) && f < 1<<63 {
				return int64(f), nil
			}
			return 0, fmt.Errorf("cannot use %s as an integer: out of range", quoteValue(r.Value))
		}
	}
	return 0, fmt.Errorf("cannot use %s as an integer", quoteValue(r.Value))
}
