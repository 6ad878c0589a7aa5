/**
 * {@code weft campaign}: seeds × an environment matrix of a live target, each run a real {@code weft run --record}
 * in a child JVM judged by a checker; shards, resume, live confirmation of windowed hits, compaction, verification
 * and the report files. Entry point: {@link dev.weft.launcher.campaign.CampaignCommand}.
 */
package dev.weft.launcher.campaign;
