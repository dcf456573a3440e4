package model

// SetRegisterKinds makes newWorld register the workload controllers f
// registers (kinds_test.go: the ReplicaSet and Deployment controllers,
// whose packages import this one).
func SetRegisterKinds(f func(*World)) { registerKinds = f }

// SetRegisterScheduler makes newWorld register the scheduler f registers
// (kinds_test.go: model/scheduler imports this package).
func SetRegisterScheduler(f func(*World)) { registerScheduler = f }

// SetRegisterKubelet makes newWorld register the kubelet's parts f
// registers (kinds_test.go: model/kubelet/oom imports this package).
func SetRegisterKubelet(f func(*World)) { registerKubelet = f }
