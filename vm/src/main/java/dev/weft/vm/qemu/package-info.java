/**
 * Driving QEMU: the fixed machine definition (one TCG vCPU with instruction counting), the QMP client, one run
 * under the control plane and the watchdog that ends a run whose instruction count stops moving.
 */
package dev.weft.vm.qemu;
