package model

// Label names a metric for the views: "cpu utilization (% of request)",
// "requests_per_second per pod", "Service web requests_per_second".
func (ms *MetricSpec) Label() string {
	switch {
	case ms.Source == MetricResource && ms.Target == TargetUtilization:
		return ms.Resource + " utilization (% of request)"
	case ms.Source == MetricResource || ms.Source == MetricPods:
		return ms.Resource + ms.Name + " per pod"
	}
	return ms.ObjectKind + " " + ms.ObjectName + " " + ms.Name
}

// Current is the metric's current value v in the unit of its target: a
// percent for a utilization, else thousandths (the object's value, or the
// average per pod).
func (ms *MetricSpec) Current(v *MetricStatus) int64 {
	switch {
	case ms.Target == TargetUtilization:
		return int64(v.Utilization)
	case ms.Source == MetricObject && ms.Target == TargetValue:
		return v.Value
	}
	return v.Average
}
