package model

// SetRegisterKinds makes newWorld register the workload controllers f
// registers (kinds_test.go: the ReplicaSet and Deployment controllers,
// whose packages import this one).
func SetRegisterKinds(f func(*World)) { registerKinds = f }
