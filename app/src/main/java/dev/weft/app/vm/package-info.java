/**
 * View models: the workbench's state and behaviour without the toolkit (JavaFX beans and collections only), so
 * tests drive them directly. One {@link dev.weft.app.vm.DocumentViewModel} per open recording holds the cursor
 * every panel follows; the panel view models (filter, search, range, state, inspector, invariants, violation bar,
 * bookmarks) hang off it. Slow work runs on the {@link dev.weft.app.vm.TaskRunner}'s worker. A recording followed
 * while it is written ({@link dev.weft.app.vm.FollowViewModel}) is a document replaced by a grown one as records
 * arrive.
 */
package dev.weft.app.vm;
