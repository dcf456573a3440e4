package model

// Grow appends v to s, doubling s's array when it is full. Append grows a
// long slice by a quarter at a time, which leaves about four times the
// final array behind as garbage while a fleet's setup fills it a pod at a
// time; doubling leaves at most the final size. For slices a component
// keeps per pod or per node.
func Grow[E any](s []E, v E) []E {
	if len(s) == cap(s) {
		s = double(s, len(s)+1)
	}
	return append(s, v)
}

// Extend returns s lengthened with zero elements to length n (n >=
// len(s)), doubling its array when it is too small, as Grow does.
func Extend[E any](s []E, n int) []E {
	if n > cap(s) {
		s = double(s, n)
	}
	m := len(s)
	s = s[:n]
	clear(s[m:])
	return s
}

// double returns a copy of s in an array of at least n elements and twice
// s's capacity.
func double[E any](s []E, n int) []E {
	a := make([]E, len(s), max(2*cap(s), n, 16))
	copy(a, s)
	return a
}
