package scenarios

// NodeCost is what a node of spec.nodes costs to run, for the cluster.cost
// metric of studies: a fixed cluster's bill beside an autoscaled one's.
type NodeCost struct {
	// PricePerHour is the node's price per hour of its lifetime (in any
	// currency, dollars by convention); default 0.
	PricePerHour *float64 `yaml:"pricePerHour"`
}

// maxPricePerHour bounds a node's price, so that a run's cost stays a
// finite number.
const maxPricePerHour = 1e9

// price is the node's pricePerHour, 0 if unset.
func (c *NodeCost) price() float64 {
	if c.PricePerHour == nil {
		return 0
	}
	return *c.PricePerHour
}
