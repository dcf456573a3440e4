package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
	"go.yaml.in/yaml/v3"
)

// Eviction is the kubelet's eviction manager's part of the settings, under
// KubeletConfiguration's names: thresholds by signal (only
// memory.available), the soft thresholds' grace periods, the longest
// grace period a soft eviction gives a pod, and how long MemoryPressure
// stays after the last pressure.
type Eviction struct {
	EvictionHard                     map[string]Threshold `yaml:"evictionHard"`
	EvictionSoft                     map[string]Threshold `yaml:"evictionSoft"`
	EvictionSoftGracePeriod          map[string]Duration  `yaml:"evictionSoftGracePeriod"`
	EvictionMaxPodGracePeriod        *int64               `yaml:"evictionMaxPodGracePeriod"` // seconds, as the kubelet's
	EvictionPressureTransitionPeriod *Duration            `yaml:"evictionPressureTransitionPeriod"`
}

// Threshold is an eviction threshold: a quantity ("100Mi") or a
// percentage of the node's capacity ("10%"), as the kubelet parses them
// (parseThresholdStatement).
type Threshold struct {
	Quantity   Quantity
	Percentage float32 // 0..1 when IsPercent
	IsPercent  bool
}

// UnmarshalYAML accepts a quantity or a percentage from 0% to 100%.
func (t *Threshold) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("expected a quantity such as 100Mi or a percentage such as 10%%, found %s", describeNode(n))
	}
	s := strings.TrimSpace(n.Value)
	if num, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(num, 32)
		switch {
		case err != nil || !isPlainNumber(num):
			return fmt.Errorf("invalid percentage %s: want a number from 0 to 100 and %%, such as 10%%", quoteValue(s))
		case f < 0:
			return fmt.Errorf("eviction percentage threshold %s must be >= 0%%", quoteValue(s))
		case f > 100:
			return fmt.Errorf("eviction percentage threshold %s must be <= 100%%", quoteValue(s))
		}
		*t = Threshold{Percentage: float32(f / 100), IsPercent: true}
		return nil
	}
	q, err := ParseQuantity(s)
	if err != nil {
		return fmt.Errorf("%v, or a percentage such as 10%%", err)
	}
	*t = Threshold{Quantity: q}
	return nil
}

// MarshalYAML writes t as written.
func (t Threshold) MarshalYAML() (any, error) {
	if t.IsPercent {
		return strconv.FormatFloat(float64(t.Percentage)*100, 'f', -1, 32) + "%", nil
	}
	return t.Quantity.String(), nil
}

// model is the threshold for the model; 0% and 100% turn it off, as the
// kubelet ignores them.
func (t Threshold) model() model.MemoryThreshold {
	if t.IsPercent {
		if t.Percentage <= 0 || t.Percentage >= 1 {
			return model.MemoryThreshold{}
		}
		return model.MemoryThreshold{Percentage: t.Percentage}
	}
	return model.MemoryThreshold{Bytes: t.Quantity.Value()}
}

// memorySignal is the one eviction signal podsim models.
const memorySignal = "memory.available"

// settings puts the eviction settings over st's defaults.
func (e *Eviction) settings(st *model.Settings) {
	setDur(&st.EvictionPressureTransitionPeriod, e.EvictionPressureTransitionPeriod)
	if t, ok := e.EvictionHard[memorySignal]; ok {
		st.EvictionHard = t.model()
	}
	if t, ok := e.EvictionSoft[memorySignal]; ok {
		st.EvictionSoft = t.model()
	}
	if d, ok := e.EvictionSoftGracePeriod[memorySignal]; ok {
		st.EvictionSoftGracePeriod = d.D()
	}
	if e.EvictionMaxPodGracePeriod != nil {
		st.EvictionMaxPodGracePeriod = sim.Seconds(*e.EvictionMaxPodGracePeriod)
	}
}
