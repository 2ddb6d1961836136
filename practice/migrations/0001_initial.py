# SoloGame was first made by the "mahjong" app, which kept it under the table name
# mahjong_sologame; that name stays. A database migrated before the move applied this
# migration already; a fresh one creates the table here.

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('accounts', '0002_ratings_and_merges'),
    ]

    operations = [
        migrations.CreateModel(
            name='SoloGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(max_length=20)),
                ('layout_number', models.PositiveSmallIntegerField()),
                ('tile_count', models.PositiveSmallIntegerField()),
                ('status', models.CharField(choices=[('playing', 'Playing'), ('won', 'Won'), ('abandoned', 'Abandoned')], default='playing', max_length=10)),
                ('moves', models.JSONField(default=list)),
                ('hints_used', models.PositiveIntegerField(default=0)),
                ('undos_used', models.PositiveIntegerField(default=0)),
                ('elapsed_ms', models.PositiveBigIntegerField(default=0)),
                ('running_since', models.DateTimeField(blank=True, null=True)),
                ('started_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('time_ms', models.PositiveBigIntegerField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='solo_games', to='accounts.player')),
            ],
            options={
                'db_table': 'mahjong_sologame',
                'indexes': [models.Index(fields=['player', 'status'], name='mahjong_sol_player__960af8_idx'), models.Index(fields=['player', 'layout_number', 'time_ms'], name='mahjong_sol_player__557c2f_idx')],
            },
        ),
    ]
