from django.db import migrations, models


class Migration(migrations.Migration):
    """Mobile and implicit authentication (docs/mobile-auth.md): device public keys and requests."""

    dependencies = [("extension", "0002_pin_proof_v2")]

    operations = [
        migrations.CreateModel(
            name="MobileAuthEnrolment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("profile_id", models.CharField(max_length=128, unique=True)),
                ("public_key", models.CharField(max_length=100)),
                ("push_token", models.CharField(blank=True, default="", max_length=512)),
            ],
        ),
        migrations.CreateModel(
            name="MobileAuthRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("request_id", models.CharField(max_length=64, unique=True)),
                ("profile_id", models.CharField(db_index=True, max_length=128)),
                ("message", models.TextField()),
                ("kind", models.CharField(max_length=16)),
                ("expires", models.DateTimeField()),
                ("nonce", models.CharField(max_length=64)),
                ("otp", models.CharField(blank=True, db_index=True, default="", max_length=512)),
                ("decision", models.BooleanField(default=None, null=True)),
                ("pushed", models.BooleanField(default=False)),
            ],
        ),
        migrations.CreateModel(
            name="ImplicitKey",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("profile_id", models.CharField(max_length=128, unique=True)),
                ("public_key", models.CharField(max_length=100)),
            ],
        ),
    ]
