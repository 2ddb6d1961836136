"""infra/channel_layer.py overrides and reads private parts of channels-redis: it holds
only for the version it was written against. Another version installed fails here, by
name, before a fault finds it (docs/OPERATIONS.md §Upgrading channels-redis)."""

import importlib.metadata

import channels_redis.pubsub
import channels_redis.utils

from infra import channel_layer

UPSTREAM = {
    "RedisSingleShardConnection": channels_redis.pubsub.RedisSingleShardConnection,
    "RedisPubSubLoopLayer": channels_redis.pubsub.RedisPubSubLoopLayer,
    "RedisPubSubChannelLayer": channels_redis.pubsub.RedisPubSubChannelLayer,
    "channels_redis.utils": channels_redis.utils,
}


def test_the_installed_channels_redis_is_the_one_the_layer_was_written_against():
    assert importlib.metadata.version("channels-redis") == channel_layer.CHANNELS_REDIS


def test_every_private_part_the_layer_relies_on_is_there():
    layer = channels_redis.pubsub.RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1/0"])
    loop_layer = channels_redis.pubsub.RedisPubSubLoopLayer(
        hosts=["redis://127.0.0.1:1/0"], channel_layer=layer
    )
    made = {  # instances, for the attributes their __init__ sets (nothing connects yet)
        "RedisSingleShardConnection": loop_layer._shards[0],
        "RedisPubSubLoopLayer": loop_layer,
        "RedisPubSubChannelLayer": layer,
        "channels_redis.utils": channels_redis.utils,
    }
    missing = [
        f"{owner}.{name}"
        for owner, names in channel_layer.RELIES_ON.items()
        for name in names
        if not hasattr(UPSTREAM[owner], name) and not hasattr(made[owner], name)
    ]
    assert missing == []
