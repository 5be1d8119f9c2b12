"""API tokens of the club, stored as digests.

The tokens made before (Django REST framework's, one per login, kept in clear) become
tokens of no particular club that act with their login's roles, as they did; their keys
keep working, and only their SHA-256 is kept: the clear keys are deleted.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def hash_existing_tokens(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    import hashlib

    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("clubs", "ApiToken")
    for old in Token.objects.all().iterator():
        ApiToken.objects.create(
            user_id=old.user_id,
            club=None,
            scope="organiser",
            name="API",
            prefix=old.key[:8],
            digest=hashlib.sha256(old.key.encode()).hexdigest(),
            created_at=old.created,
        )
    Token.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0011_checkpoints_and_line_seals'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('authtoken', '0004_alter_tokenproxy_options'),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=80, verbose_name='name')),
                ('scope', models.CharField(choices=[('member', 'Read'), ('scorekeeper', 'Score entry'), ('organiser', 'Organiser')], max_length=16, verbose_name='scope')),
                ('prefix', models.CharField(editable=False, max_length=8, verbose_name='key begins with')),
                ('digest', models.CharField(editable=False, max_length=64, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                ('expires_at', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked')),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to='clubs.club')),
                ('revoked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL, verbose_name='acts as')),
            ],
            options={
                'verbose_name': 'API token',
                'verbose_name_plural': 'API tokens',
                'ordering': ['-created_at', '-id'],
            },
        ),
        # The clear keys cannot come back: going back leaves the tokens unusable.
        migrations.RunPython(hash_existing_tokens, migrations.RunPython.noop),
    ]
