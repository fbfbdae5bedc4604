// The controller speaks the workers' language: the target side's types (faults,
// triggers, the worker protocol) are the controller's too.
@_exported import ChaosTarget
