package dev.weft.app.view;

/** {@link RedisLostWriteUiTest} in a 1024×700 window: the lost write's finding still reads there. */
class RedisLostWriteAt1024UiTest extends RedisLostWriteUiTest {
    @Override
    UiHarness harness() {
        return UiHarness.onRecordings(1024, 700);
    }

    @Override
    String shots() {
        return "redis-lost-write-1024";
    }
}
