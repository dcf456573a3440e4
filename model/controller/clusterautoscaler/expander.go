package clusterautoscaler

import (
	"regexp"
	"slices"
)

// expand picks one option by the configured expander (expander/*); ties
// are broken at random, as upstream's fallback to the random expander.
func (c *Controller) expand(options []*option) *option {
	var best []*option
	switch c.s.Expander {
	case "most-pods":
		best = bestBy(options, func(o *option) float64 { return -float64(o.pods) })
	case "price":
		best = bestBy(options, func(o *option) float64 {
			return float64(o.nodes) * o.g.spec.Template.PricePerHour / float64(o.pods)
		})
	case "priority":
		best = c.byPriority(options)
	case "random":
		best = options
	default: // least-waste
		best = bestBy(options, wasted)
	}
	if len(best) == 1 {
		return best[0]
	}
	return best[c.rand.IntN(len(best))]
}

// bestBy returns the options of the lowest score.
func bestBy(options []*option, score func(*option) float64) []*option {
	var best []*option
	low := 0.0
	for _, o := range options {
		s := score(o)
		switch {
		case len(best) == 0 || s < low:
			best, low = []*option{o}, s
		case s == low:
			best = append(best, o)
		}
	}
	return best
}

// wasted is the least-waste expander's score (expander/waste/waste.go):
// the share of the new nodes' cpu left unrequested plus that of their
// memory.
func wasted(o *option) float64 {
	capa := o.g.spec.Template.Capacity
	cpu := float64(capa.MilliCPU) * float64(o.nodes)
	mem := float64(capa.Memory) * float64(o.nodes)
	score := 0.0
	if cpu > 0 {
		score += (cpu - float64(o.req.MilliCPU)) / cpu
	}
	if mem > 0 {
		score += (mem - float64(o.req.Memory)) / mem
	}
	return score
}

// byPriority is the priority expander (expander/priority/priority.go):
// the options whose group name matches a regular expression of the
// highest priority that matches any; all of them if none matches.
func (c *Controller) byPriority(options []*option) []*option {
	prios := make([]int, 0, len(c.s.Priorities))
	for p := range c.s.Priorities {
		prios = append(prios, p)
	}
	slices.Sort(prios)
	slices.Reverse(prios)
	for _, p := range prios {
		var match []*option
		for _, o := range options {
			for _, expr := range c.s.Priorities[p] {
				if re, err := regexp.Compile(expr); err == nil && re.MatchString(o.g.spec.Name) {
					match = append(match, o)
					break
				}
			}
		}
		if len(match) > 0 {
			return match
		}
	}
	return options
}
